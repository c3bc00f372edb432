import { isAttributionReferer, isAttributionTitle, MAX_ATTRIBUTION_LENGTH } from '@switchyard/shared';
import { t } from '../../lib/i18n';

/*
 * The channel's per-channel request settings as the drawer edits them: param_override as JSON text, and the proxy,
 * the system prompt and OpenRouter's app attribution kept inside the `setting` JSON (other keys of it are kept as
 * they were). The server checks the same rules; these only spare a round trip.
 */

export interface SettingFields {
  proxy: string;
  system_prompt: string;
  system_prompt_override: boolean;
  /** OpenRouter's HTTP-Referer ('' for the system's address). */
  http_referer: string;
  /** OpenRouter's X-Title ('' for the system's name). */
  x_title: string;
}

function objectOf(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The form's fields read from a stored `setting` (a broken one reads as empty). */
export function settingFields(setting: string | undefined): SettingFields {
  const s = objectOf(setting ?? '') ?? {};
  return {
    proxy: typeof s.proxy === 'string' ? s.proxy : '',
    system_prompt: typeof s.system_prompt === 'string' ? s.system_prompt : '',
    system_prompt_override: s.system_prompt_override === true,
    http_referer: typeof s.http_referer === 'string' ? s.http_referer : '',
    x_title: typeof s.x_title === 'string' ? s.x_title : '',
  };
}

/** The `setting` to save: the stored one with the form's fields written over it ('' when nothing is left). */
export function mergeSetting(stored: string | undefined, fields: SettingFields): string {
  const out: Record<string, unknown> = { ...(objectOf(stored ?? '') ?? {}) };
  const put = (key: keyof SettingFields, value: unknown, empty: boolean) => {
    if (empty) delete out[key];
    else out[key] = value;
  };
  put('proxy', fields.proxy.trim(), fields.proxy.trim() === '');
  put('system_prompt', fields.system_prompt, fields.system_prompt.trim() === '');
  put('system_prompt_override', true, !fields.system_prompt_override);
  put('http_referer', fields.http_referer.trim(), fields.http_referer.trim() === '');
  put('x_title', fields.x_title.trim(), fields.x_title.trim() === '');
  return Object.keys(out).length === 0 ? '' : JSON.stringify(out);
}

/** What is wrong with a param_override text, or null. */
export function paramOverrideProblem(text: string): string | null {
  const parsed = objectOf(text);
  if (parsed === null) {
    try {
      JSON.parse(text);
    } catch {
      return t('参数覆盖必须是合法的 JSON 格式！');
    }
    return t('参数覆盖必须是 JSON 对象，例如 {"temperature": 0.5}');
  }
  if ('stream' in parsed || 'stream_options' in parsed) return t('参数覆盖不能设置 stream、stream_options：是否流式由调用方决定，计费依赖它');
  return null;
}

/** What is wrong with a proxy address, or null ('' means no proxy). */
export function proxyProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return null;
  try {
    const url = new URL(value);
    if (['http:', 'https:', 'socks5:', 'socks5h:'].includes(url.protocol) && url.hostname !== '' && (url.pathname === '' || url.pathname === '/')) return null;
  } catch {
    // Not a URL at all.
  }
  return t('代理地址无效：请填写以 http://、https:// 或 socks5:// 开头的完整地址，例如 socks5://127.0.0.1:1080');
}

/** What is wrong with OpenRouter's app address, or null ('' means the system's). */
export function refererProblem(text: string): string | null {
  if (text.trim() === '' || isAttributionReferer(text)) return null;
  return t('应用地址无效：请填写以 http:// 或 https:// 开头的完整地址（最多 {n} 个字符，仅限 ASCII 字符）', { n: MAX_ATTRIBUTION_LENGTH });
}

/** What is wrong with OpenRouter's app name, or null ('' means the system's). */
export function titleProblem(text: string): string | null {
  if (text.trim() === '' || isAttributionTitle(text)) return null;
  return t('应用名称只能包含英文字母、数字、空格和英文标点（最多 {n} 个字符）', { n: MAX_ATTRIBUTION_LENGTH });
}

/** OpenRouter's attribution a new channel starts with: the console's own address and the system's name. */
export function attributionDefaults(serverAddress: string, systemName: string): Pick<SettingFields, 'http_referer' | 'x_title'> {
  return { http_referer: isAttributionReferer(serverAddress) ? serverAddress.trim() : '', x_title: isAttributionTitle(systemName) ? systemName.trim() : '' };
}
