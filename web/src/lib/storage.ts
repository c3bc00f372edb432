import type { LoginUser, StatusData } from '@switchyard/shared';

/** Every local-storage key the console uses (spec §3). */
export const STORAGE_KEYS = {
  chats: 'chats',
  chatLink: 'chat_link',
  chatLink2: 'chat_link2',
  status: 'status',
  user: 'user',
  pageSize: 'page-size',
  footerHtml: 'footer_html',
  mjNotifyEnabled: 'mj_notify_enabled',
  defaultCollapseSidebar: 'default_collapse_sidebar',
  enableDataExport: 'enable_data_export',
  enableDrawing: 'enable_drawing',
  enableTask: 'enable_task',
  theme: 'theme',
  channelPageSize: 'channel-page-size',
  channelIdSort: 'channel-id-sort',
  /** Fingerprint of the last system notice the user closed (it is shown again when it changes). */
  noticeSeen: 'notice_seen',
  /** The console language the user picked in the top bar ('zh' or 'en'). */
  language: 'language',
  /** The playground's model, group, limits and system prompt. */
  playgroundSettings: 'playground_settings',
} as const;

export function readJson<T>(key: string): T | null {
  const raw = localStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

export const getStoredUser = (): LoginUser | null => readJson<LoginUser>(STORAGE_KEYS.user);
export const setStoredUser = (user: LoginUser): void => writeJson(STORAGE_KEYS.user, user);
export const clearStoredUser = (): void => localStorage.removeItem(STORAGE_KEYS.user);

export const getStoredStatus = (): Partial<StatusData> => readJson<StatusData>(STORAGE_KEYS.status) ?? {};

/** Saves the status record and mirrors the individual keys the spec lists. */
export function storeStatus(status: StatusData): void {
  writeJson(STORAGE_KEYS.status, status);
  localStorage.setItem(STORAGE_KEYS.footerHtml, status.footer_html ?? '');
  localStorage.setItem(STORAGE_KEYS.chatLink, status.chat_link ?? '');
  localStorage.setItem(STORAGE_KEYS.chatLink2, status.chat_link2 ?? '');
  localStorage.setItem(STORAGE_KEYS.mjNotifyEnabled, String(status.mj_notify_enabled));
  localStorage.setItem(STORAGE_KEYS.defaultCollapseSidebar, String(status.default_collapse_sidebar));
  localStorage.setItem(STORAGE_KEYS.enableDataExport, String(status.enable_data_export));
  localStorage.setItem(STORAGE_KEYS.enableDrawing, String(status.enable_drawing));
  localStorage.setItem(STORAGE_KEYS.enableTask, String(status.enable_task));
  writeJson(STORAGE_KEYS.chats, status.chats ?? []);
}

/** Remembered page size of a table (default 10). */
export function getPageSize(key: string = STORAGE_KEYS.pageSize, fallback = 10): number {
  const n = Number(localStorage.getItem(key));
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function setPageSize(size: number, key: string = STORAGE_KEYS.pageSize): void {
  localStorage.setItem(key, String(size));
}
