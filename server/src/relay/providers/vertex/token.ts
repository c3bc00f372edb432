import { request } from 'undici';
import { RelayError } from '../../errors.js';
import { TokenCache, type IssuedToken, type TokenIssuer } from '../token-cache.js';
import { signAssertion } from './assertion.js';
import { invalidKey, type ServiceAccount } from './key.js';

export type AccessToken = IssuedToken;

export type TokenFetcher = TokenIssuer<ServiceAccount>;

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_TIMEOUT_MS = 30_000;
/** Google issues access tokens for an hour when it does not say. */
const DEFAULT_LIFETIME_SECONDS = 3600;

function tokenFailure(detail: string): RelayError {
  return new RelayError(502, `Vertex AI 获取访问令牌失败${detail ? `：${detail}` : ''}`, 'vertex_token_failed', undefined, false);
}

/** Google's OAuth error code, for the message; the description is dropped as it may quote the request. */
function oauthError(text: string): string {
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof e === 'string' && /^[a-z_]+$/.test(e)) return e;
  } catch {
    // not JSON
  }
  return '';
}

/** Trades a signed assertion for an access token at the service account's token endpoint. */
export const fetchAccessToken: TokenFetcher = async (sa, nowMs) => {
  let assertion: string;
  try {
    assertion = await signAssertion(sa, Math.floor(nowMs / 1000));
  } catch {
    throw invalidKey();
  }
  let status: number;
  let text: string;
  try {
    const res = await request(sa.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
      headersTimeout: TOKEN_TIMEOUT_MS,
      bodyTimeout: TOKEN_TIMEOUT_MS,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch {
    throw tokenFailure('');
  }
  if (status !== 200) throw tokenFailure(`HTTP ${status}${oauthError(text) ? ` ${oauthError(text)}` : ''}`);
  let parsed: { access_token?: unknown; expires_in?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw tokenFailure('invalid response');
  }
  if (typeof parsed.access_token !== 'string' || !parsed.access_token) throw tokenFailure('invalid response');
  const expiresIn = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : DEFAULT_LIFETIME_SECONDS;
  return { token: parsed.access_token, expiresIn };
};

/**
 * Access tokens per service account, reused until shortly before they expire; concurrent requests for an account
 * share one fetch, and a failed fetch is not remembered.
 */
export class AccessTokenCache extends TokenCache<ServiceAccount> {
  constructor(fetcher: TokenFetcher = fetchAccessToken, now: () => number = Date.now, marginMs = 5 * 60_000, maxEntries = 1000) {
    super((sa) => `${sa.clientEmail}\n${sa.privateKeyId}\n${sa.tokenUri}`, fetcher, now, marginMs, maxEntries);
  }
}
