import { request } from 'undici';
import { RelayError } from '../../errors.js';
import { signAssertion } from './assertion.js';
import { invalidKey, type ServiceAccount } from './key.js';

export interface AccessToken {
  token: string;
  /** Lifetime in seconds, as the token endpoint reported it. */
  expiresIn: number;
}

export type TokenFetcher = (sa: ServiceAccount, nowMs: number) => Promise<AccessToken>;

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

interface Entry {
  token: string;
  /** When to stop using it (ms): its expiry minus the margin. */
  renewAt: number;
}

/**
 * Access tokens per service account, reused until shortly before they expire. Concurrent requests for an account
 * share one in-flight fetch; a failed fetch is not remembered, so the next request tries again.
 */
export class AccessTokenCache {
  private readonly tokens = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly fetcher: TokenFetcher = fetchAccessToken,
    private readonly now: () => number = Date.now,
    private readonly marginMs = 5 * 60_000,
    private readonly maxEntries = 1000,
  ) {}

  get(sa: ServiceAccount): Promise<string> {
    const id = `${sa.clientEmail}\n${sa.privateKeyId}\n${sa.tokenUri}`;
    const cached = this.tokens.get(id);
    if (cached && this.now() < cached.renewAt) return Promise.resolve(cached.token);
    const pending = this.inFlight.get(id);
    if (pending) return pending;
    const fetching = this.fetch(id, sa).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, fetching);
    return fetching;
  }

  private async fetch(id: string, sa: ServiceAccount): Promise<string> {
    const startedAt = this.now();
    const { token, expiresIn } = await this.fetcher(sa, startedAt);
    // A lifetime shorter than the margin is still used once, for this request, but never kept.
    const renewAt = startedAt + expiresIn * 1000 - this.marginMs;
    if (renewAt > this.now()) {
      if (this.tokens.size >= this.maxEntries) this.evictExpired();
      this.tokens.set(id, { token, renewAt });
    }
    return token;
  }

  private evictExpired(): void {
    const now = this.now();
    for (const [id, entry] of this.tokens) if (entry.renewAt <= now) this.tokens.delete(id);
    // Still full of live tokens (keys rotated in bulk): drop the oldest insertion.
    if (this.tokens.size >= this.maxEntries) this.tokens.delete(this.tokens.keys().next().value!);
  }
}
