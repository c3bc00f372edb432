import { ATTRIBUTION_SETTING, isAttributionReferer, isAttributionTitle } from '@switchyard/shared';

/*
 * A channel's own request settings, read once when the routing table loads (never per call): `param_override`
 * (top-level keys written over the upstream body), and from the `setting` JSON the outbound `proxy`,
 * `system_prompt` and `system_prompt_override`, stored as the established gateway stores them, and the app
 * attribution OpenRouter channels send (`http_referer`, `x_title`).
 */

/**
 * Keys param_override may not set. Whether a call streams is the client's choice and decides how the answer is read
 * and metered; stream_options carries the usage request that streamed calls are billed by.
 */
export const RESERVED_OVERRIDE_KEYS: readonly string[] = ['stream', 'stream_options'];

/** Schemes a channel proxy may use. socks5h resolves names at the proxy, as socks5 does here. */
export const PROXY_PROTOCOLS: readonly string[] = ['http:', 'https:', 'socks5:', 'socks5h:'];

/** Longest system prompt a channel may carry (characters). */
export const MAX_SYSTEM_PROMPT = 100_000;

export interface ChannelSettings {
  /** The proxy URL upstream calls go through (normalised), or null for direct calls. */
  proxy: string | null;
  /** Prepended as the system message of chat calls ('' for none). */
  systemPrompt: string;
  /** With a client system message already there: true puts the prompt in front of it, false leaves it alone. */
  systemPromptOverride: boolean;
  /** Written over the upstream body (reserved keys removed). */
  paramOverride: Readonly<Record<string, unknown>>;
  /** The app's address and name OpenRouter is told (HTTP-Referer, X-Title); '' for the system's. */
  attribution: Readonly<{ referer: string; title: string }>;
}

const NO_ATTRIBUTION = Object.freeze({ referer: '', title: '' });

export const NO_SETTINGS: ChannelSettings = Object.freeze({
  proxy: null,
  systemPrompt: '',
  systemPromptOverride: false,
  paramOverride: Object.freeze({}),
  attribution: NO_ATTRIBUTION,
});

/** The proxy URL normalised, or null when it is not one the relay can use. */
export function parseProxyUrl(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (!PROXY_PROTOCOLS.includes(url.protocol) || url.hostname === '') return null;
  if (url.pathname !== '' && url.pathname !== '/') return null;
  return url.href.replace(/\/$/, '');
}

/** param_override without the keys it may not set. */
export function safeOverride(override: Record<string, unknown>): Readonly<Record<string, unknown>> {
  const keys = Object.keys(override);
  if (keys.length === 0) return NO_SETTINGS.paramOverride;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (!RESERVED_OVERRIDE_KEYS.includes(key)) out[key] = override[key];
  return Object.freeze(out);
}

/**
 * The settings of a channel from its parsed `setting` and `param_override` objects. Values another tool wrote that
 * do not fit (a proxy URL of another scheme, a prompt that is not text) are left out rather than failing calls.
 */
export function channelSettings(setting: Record<string, unknown>, paramOverride: Record<string, unknown>): ChannelSettings {
  const proxy = typeof setting.proxy === 'string' ? parseProxyUrl(setting.proxy) : null;
  const systemPrompt = typeof setting.system_prompt === 'string' ? setting.system_prompt : '';
  const systemPromptOverride = setting.system_prompt_override === true;
  const override = safeOverride(paramOverride);
  const attribution = attributionOf(setting);
  if (proxy === null && systemPrompt === '' && Object.keys(override).length === 0 && attribution === NO_ATTRIBUTION) return NO_SETTINGS;
  return Object.freeze({ proxy, systemPrompt, systemPromptOverride, paramOverride: override, attribution });
}

function attributionOf(setting: Record<string, unknown>): ChannelSettings['attribution'] {
  const referer = setting[ATTRIBUTION_SETTING.referer];
  const title = setting[ATTRIBUTION_SETTING.title];
  const out = {
    referer: typeof referer === 'string' && isAttributionReferer(referer) ? referer.trim() : '',
    title: typeof title === 'string' && isAttributionTitle(title) ? title.trim() : '',
  };
  return out.referer === '' && out.title === '' ? NO_ATTRIBUTION : Object.freeze(out);
}
