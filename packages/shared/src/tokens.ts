import { TOKEN_STATUS } from './roles.js';

/** Shown to users (and accepted from them) in front of the stored key. */
export const TOKEN_KEY_PREFIX = 'sk-';
export const TOKEN_KEY_LENGTH = 48;
export const TOKEN_NAME_MAX_LENGTH = 30;
export const TOKEN_MODEL_LIMITS_MAX_LENGTH = 1024;
/** expired_time value for a token that never expires. */
export const TOKEN_NEVER_EXPIRES = -1;

/** The columns the status rule looks at. */
export interface TokenStatusFields {
  status: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean | number;
}

/** True when the token's lifetime is over at `now` (unix seconds): it is alive while expired_time > now. */
export function isTokenExpired(token: Pick<TokenStatusFields, 'expired_time'>, now: number): boolean {
  return token.expired_time !== TOKEN_NEVER_EXPIRES && token.expired_time <= now;
}

/** True when a limited token has nothing left to spend. */
export function isTokenExhausted(token: Pick<TokenStatusFields, 'remain_quota' | 'unlimited_quota'>): boolean {
  return !token.unlimited_quota && token.remain_quota <= 0;
}

/**
 * The status a token really has at `now`. The stored status holds the owner's intent (2 = switched off; 1, 3 and 4
 * all mean "on") plus a cache of the last derived state, so expiry and exhaustion are recomputed here: an "on"
 * token past its expiry is 3, an "on" limited token without quota is 4, otherwise 1. Expiry wins over exhaustion.
 * Unknown codes pass through untouched. The console, the token API and the relay all decide with this one rule.
 */
export function effectiveTokenStatus(token: TokenStatusFields, now: number): number {
  const { status } = token;
  if (status !== TOKEN_STATUS.ENABLED && status !== TOKEN_STATUS.EXPIRED && status !== TOKEN_STATUS.EXHAUSTED) {
    return status;
  }
  if (isTokenExpired(token, now)) return TOKEN_STATUS.EXPIRED;
  if (isTokenExhausted(token)) return TOKEN_STATUS.EXHAUSTED;
  return TOKEN_STATUS.ENABLED;
}

/** The key as stored: without the sk- prefix and surrounding blanks. */
export function stripTokenKeyPrefix(key: string): string {
  const trimmed = key.trim();
  return trimmed.startsWith(TOKEN_KEY_PREFIX) ? trimmed.slice(TOKEN_KEY_PREFIX.length) : trimmed;
}

/** Comma-joined model names, trimmed, without blanks or repeats, in their first order. */
export function normalizeModelLimits(value: string): string {
  const names = value
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  return [...new Set(names)].join(',');
}

/** The non-blank lines of an IP allow list, trimmed. */
export function allowIpEntries(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

export function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p));
}

export function isIPv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return false;
  let body = text;
  if (text.includes('.')) {
    // An embedded IPv4 address takes the place of the last two groups.
    const lastColon = text.lastIndexOf(':');
    if (lastColon < 0 || !isIPv4(text.slice(lastColon + 1))) return false;
    body = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  if (halves.length === 1) {
    const all = groups(body);
    return all.length === 8 && all.every((g) => HEXTET.test(g));
  }
  const [head, tail] = halves.map(groups);
  return head.length + tail.length <= 7 && [...head, ...tail].every((g) => HEXTET.test(g));
}

/** An IPv4 or IPv6 address, optionally with a /prefix (CIDR). */
export function isIpOrCidr(text: string): boolean {
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const prefix = slash < 0 ? null : text.slice(slash + 1);
  const max = isIPv4(address) ? 32 : isIPv6(address) ? 128 : -1;
  if (max < 0) return false;
  if (prefix === null) return true;
  return /^(0|[1-9]\d{0,2})$/.test(prefix) && Number(prefix) <= max;
}
