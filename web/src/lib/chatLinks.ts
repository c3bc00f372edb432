/**
 * The chat targets the administrator configured: the `Chats` list of {name: URL template} (status.chats), or,
 * when that list is empty, the single `ChatLink` (a ChatGPT Next Web deployment). Templates carry `{key}` and
 * `{address}` placeholders. The sidebar, the /chat pages and the token table's chat dropdown all read them here,
 * so an index in /chat/{id} means the same target everywhere.
 */
import type { StatusData } from '@switchyard/shared';

export interface ChatLink {
  name: string;
  template: string;
}

export type ChatLinks =
  /** The list could not be read (not JSON, not a list of {name: URL}). */
  | { kind: 'bad' }
  /** From the Chats list: the sidebar shows one sub-item per target. */
  | { kind: 'list'; links: ChatLink[] }
  /** From ChatLink: one sidebar item. */
  | { kind: 'single'; links: ChatLink[] }
  | { kind: 'none' };

/** How a bare ChatLink (a Next Web deployment without placeholders) receives the token and the address. */
const NEXT_WEB_SETTINGS = '/#/?settings={"key":"{key}","url":"{address}"}';

function parseList(value: unknown): ChatLink[] | 'bad' {
  let list = value;
  if (typeof list === 'string') {
    if (list.trim() === '') return [];
    try {
      list = JSON.parse(list);
    } catch {
      return 'bad';
    }
  }
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return 'bad';
  const links: ChatLink[] = [];
  for (const entry of list as unknown[]) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'bad';
    for (const [name, template] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof template !== 'string' || template.trim() === '') return 'bad';
      links.push({ name, template: template.trim() });
    }
  }
  return links;
}

function singleLink(chatLink: string, name: string): ChatLink {
  const base = chatLink.trim();
  if (base.includes('{key}') || base.includes('{address}')) return { name, template: base };
  return { name, template: base.replace(/\/+$/, '') + NEXT_WEB_SETTINGS };
}

/** Reads the configured targets; `singleName` labels the ChatLink fallback. */
export function readChatLinks(status: Partial<Pick<StatusData, 'chats' | 'chat_link'>>, singleName: string): ChatLinks {
  const list = parseList(status.chats);
  if (list === 'bad') return { kind: 'bad' };
  if (list.length > 0) return { kind: 'list', links: list };
  if (status.chat_link?.trim()) return { kind: 'single', links: [singleLink(status.chat_link, singleName)] };
  return { kind: 'none' };
}

export const chatLinkList = (links: ChatLinks): ChatLink[] =>
  links.kind === 'list' || links.kind === 'single' ? links.links : [];

/** The address chat apps should call: the configured server address, else the console's own origin. */
export function gatewayAddress(serverAddress: string | undefined, origin: string): string {
  return (serverAddress?.trim() || origin).replace(/\/+$/, '');
}

/** A template with the token (`sk-` + key) and the URL-encoded gateway address filled in. */
export function fillChatLink(template: string, key: string, address: string): string {
  return template.replaceAll('{address}', encodeURIComponent(address)).replaceAll('{key}', `sk-${key}`);
}
