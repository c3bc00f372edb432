import { createHmac } from 'node:crypto';
import { RelayError } from '../../errors.js';
import { TokenCache } from '../token-cache.js';

/** A Zhipu API key `id.secret`: the id names the key, the secret signs the tokens made from it. */
export interface ZhipuKey {
  id: string;
  secret: string;
}

/** The channel key as a ZhipuKey; throws a local 500 when it is not `id.secret`. */
export function parseZhipuKey(key: string): ZhipuKey {
  const dot = key.indexOf('.');
  const id = key.slice(0, dot);
  const secret = key.slice(dot + 1);
  if (dot <= 0 || !secret || secret.includes('.')) throw new RelayError(500, '智谱渠道密钥格式应为 id.secret', 'invalid_channel_key', undefined, false);
  return { id, secret };
}

/** How long a token made here is valid; it is made again shortly before (TokenCache's margin). */
export const TOKEN_LIFETIME_SECONDS = 3600;

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * The bearer token Zhipu accepts instead of the key: a JWT signed with the secret (HS256), whose header carries
 * Zhipu's sign_type and whose claims name the key id, the expiry and the time of signing, both in milliseconds.
 */
export function signZhipuToken(key: ZhipuKey, nowMs: number, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const claims = base64url(JSON.stringify({ api_key: key.id, exp: nowMs + lifetimeSeconds * 1000, timestamp: nowMs }));
  const signature = createHmac('sha256', key.secret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

/** Tokens per key, made once and reused until shortly before they expire. */
export function zhipuTokenCache(now: () => number = Date.now): TokenCache<ZhipuKey> {
  return new TokenCache<ZhipuKey>(
    (k) => `${k.id}.${k.secret}`,
    async (k, nowMs) => ({ token: signZhipuToken(k, nowMs), expiresIn: TOKEN_LIFETIME_SECONDS }),
    now,
  );
}
