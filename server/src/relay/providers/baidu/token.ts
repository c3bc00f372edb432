import { request } from 'undici';
import { RelayError } from '../../errors.js';
import { TokenCache, type IssuedToken, type TokenIssuer } from '../token-cache.js';
import type { BaiduKey } from './key.js';

/** What an access token is asked from: the application's credentials at one OAuth host (the channel's base URL). */
export interface BaiduCredential extends BaiduKey {
  base: string;
}

const TIMEOUT_MS = 30_000;
/** Baidu's access tokens last 30 days; used when an answer does not say. */
const DEFAULT_LIFETIME_SECONDS = 30 * 86_400;

function tokenFailure(detail: string, refused = false): RelayError {
  const err = new RelayError(502, `百度文心获取 access_token 失败${detail ? `：${detail}` : ''}`, 'baidu_token_failed', undefined, false);
  if (refused) err.credentialsRefused = true;
  return err;
}

/** The OAuth error code of a refusal (invalid_client ...); the description is dropped as it may quote the key. */
function oauthError(parsed: { error?: unknown } | null): string {
  const e = parsed?.error;
  return typeof e === 'string' && /^[a-z_]+$/.test(e) ? e : '';
}

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
}

function parseAnswer(text: string): TokenAnswer | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as TokenAnswer) : null;
  } catch {
    return null;
  }
}

/**
 * The client-credentials exchange: POST {base}/oauth/2.0/token with the application's API key as client_id and its
 * secret key as client_secret. An answer without a token (invalid_client: a wrong key) refuses the credentials.
 */
export async function fetchBaiduToken(c: BaiduCredential): Promise<IssuedToken> {
  const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: c.apiKey, client_secret: c.secretKey });
  let status: number;
  let text: string;
  try {
    const res = await request(`${c.base}/oauth/2.0/token?${query.toString()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch {
    throw tokenFailure('');
  }
  const parsed = parseAnswer(text);
  const error = oauthError(parsed);
  if (error) throw tokenFailure(`${status === 200 ? '' : `HTTP ${status} `}${error}`, error === 'invalid_client');
  if (status !== 200) throw tokenFailure(`HTTP ${status}`);
  if (typeof parsed?.access_token !== 'string' || !parsed.access_token) throw tokenFailure('invalid response');
  const expiresIn = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : DEFAULT_LIFETIME_SECONDS;
  return { token: parsed.access_token, expiresIn };
}

/**
 * Access tokens per application and host, reused until an hour before they expire; concurrent calls share one
 * exchange, a failed exchange is not remembered.
 */
export function baiduTokenCache(fetch: TokenIssuer<BaiduCredential> = fetchBaiduToken, now: () => number = Date.now): TokenCache<BaiduCredential> {
  return new TokenCache<BaiduCredential>((c) => `${c.base}\n${c.apiKey}\n${c.secretKey}`, fetch, now, 3600_000);
}
