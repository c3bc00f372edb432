import { ATTRIBUTION_SETTING, isAttributionReferer, isAttributionTitle, MAX_ATTRIBUTION_LENGTH } from '@switchyard/shared';
import { fail } from '../lib/errors.js';
import { MAX_SYSTEM_PROMPT, parseProxyUrl, RESERVED_OVERRIDE_KEYS } from '../relay/channel-settings.js';

/*
 * The channel's `param_override` and `setting` JSON as the form sends them, checked before they are stored: the
 * relay reads them once per routing load and must never meet a value it cannot use.
 */

/** Longest param_override text (characters). */
export const MAX_PARAM_OVERRIDE = 65_536;

export const SETTING_MESSAGES = {
  badSetting: '渠道额外设置必须是合法的 JSON 格式！',
  settingNotObject: '渠道额外设置必须是 JSON 对象，例如 {"proxy": "socks5://127.0.0.1:1080"}',
  badProxy: '代理地址无效：请填写以 http://、https:// 或 socks5:// 开头的完整地址，例如 socks5://127.0.0.1:1080',
  badSystemPrompt: '系统提示词必须是文本',
  systemPromptTooLong: `系统提示词过长（最多 ${MAX_SYSTEM_PROMPT} 个字符）`,
  badSystemPromptOverride: '系统提示词覆盖开关必须是 true 或 false',
  badParamOverride: '参数覆盖必须是合法的 JSON 格式！',
  paramOverrideNotObject: '参数覆盖必须是 JSON 对象，例如 {"temperature": 0.5}',
  paramOverrideReserved: `参数覆盖不能设置 ${RESERVED_OVERRIDE_KEYS.join('、')}：是否流式由调用方决定，计费依赖它`,
  paramOverrideTooLong: `参数覆盖过长（最多 ${MAX_PARAM_OVERRIDE} 个字符）`,
  badReferer: `应用地址无效：请填写以 http:// 或 https:// 开头的完整地址（最多 ${MAX_ATTRIBUTION_LENGTH} 个字符，仅限 ASCII 字符）`,
  badTitle: `应用名称只能包含英文字母、数字、空格和英文标点（最多 ${MAX_ATTRIBUTION_LENGTH} 个字符）`,
} as const;
const M = SETTING_MESSAGES;

/** A JSON object's text ('' stays ''), or the failure named by the two messages. */
function objectText(text: string, badJson: string, notObject: string): { text: string; value: Record<string, unknown> } {
  const trimmed = text.trim();
  if (trimmed === '') return { text: '', value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw fail(badJson);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail(notObject);
  return { text: trimmed, value: parsed as Record<string, unknown> };
}

/** param_override: an object whose top-level keys overwrite the upstream body, never the stream switch. */
export function checkParamOverride(text: string): string {
  if (text.length > MAX_PARAM_OVERRIDE) throw fail(M.paramOverrideTooLong);
  const { text: out, value } = objectText(text, M.badParamOverride, M.paramOverrideNotObject);
  if (RESERVED_OVERRIDE_KEYS.some((key) => Object.hasOwn(value, key))) throw fail(M.paramOverrideReserved);
  return out;
}

/** setting: an object; proxy, system_prompt, system_prompt_override and the attribution checked, other keys kept as sent. */
export function checkSetting(text: string): string {
  const { text: out, value } = objectText(text, M.badSetting, M.settingNotObject);
  const { proxy, system_prompt: prompt, system_prompt_override: override } = value;
  if (proxy !== undefined && proxy !== null && proxy !== '') {
    if (typeof proxy !== 'string' || parseProxyUrl(proxy) === null) throw fail(M.badProxy);
  }
  if (prompt !== undefined && prompt !== null) {
    if (typeof prompt !== 'string') throw fail(M.badSystemPrompt);
    if (prompt.length > MAX_SYSTEM_PROMPT) throw fail(M.systemPromptTooLong);
  }
  if (override !== undefined && override !== null && typeof override !== 'boolean') throw fail(M.badSystemPromptOverride);
  const referer = value[ATTRIBUTION_SETTING.referer];
  if (referer !== undefined && referer !== null && referer !== '' && (typeof referer !== 'string' || !isAttributionReferer(referer))) throw fail(M.badReferer);
  const title = value[ATTRIBUTION_SETTING.title];
  if (title !== undefined && title !== null && title !== '' && (typeof title !== 'string' || !isAttributionTitle(title))) throw fail(M.badTitle);
  return out;
}
