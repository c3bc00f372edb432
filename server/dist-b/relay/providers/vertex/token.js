import { request } from 'undici';
import { RelayError } from '../../errors.js';
import { signAssertion } from './assertion.js';
import { invalidKey } from './key.js';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_TIMEOUT_MS = 30_000;
/** Google issues access tokens for an hour when it does not say. */
const DEFAULT_LIFETIME_SECONDS = 3600;
function tokenFailure(detail) {
    return new RelayError(502, `Vertex AI 获取访问令牌失败${detail ? `：${detail}` : ''}`, 'vertex_token_failed', undefined, false);
}
/** Google's OAuth error code, for the message; the description is dropped as it may quote the request. */
function oauthError(text) {
    try {
        const e = JSON.parse(text).error;
        if (typeof e === 'string' && /^[a-z_]+$/.test(e))
            return e;
    }
    catch {
        // not JSON
    }
    return '';
}
/** Trades a signed assertion for an access token at the service account's token endpoint. */
export const fetchAccessToken = async (sa, nowMs) => {
    let assertion;
    try {
        assertion = await signAssertion(sa, Math.floor(nowMs / 1000));
    }
    catch {
        throw invalidKey();
    }
    let status;
    let text;
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
    }
    catch {
        throw tokenFailure('');
    }
    if (status !== 200)
        throw tokenFailure(`HTTP ${status}${oauthError(text) ? ` ${oauthError(text)}` : ''}`);
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch {
        throw tokenFailure('invalid response');
    }
    if (typeof parsed.access_token !== 'string' || !parsed.access_token)
        throw tokenFailure('invalid response');
    const expiresIn = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : DEFAULT_LIFETIME_SECONDS;
    return { token: parsed.access_token, expiresIn };
};
/**
 * Access tokens per service account, reused until shortly before they expire. Concurrent requests for an account
 * share one in-flight fetch; a failed fetch is not remembered, so the next request tries again.
 */
export class AccessTokenCache {
    fetcher;
    now;
    marginMs;
    maxEntries;
    tokens = new Map();
    inFlight = new Map();
    constructor(fetcher = fetchAccessToken, now = Date.now, marginMs = 5 * 60_000, maxEntries = 1000) {
        this.fetcher = fetcher;
        this.now = now;
        this.marginMs = marginMs;
        this.maxEntries = maxEntries;
    }
    get(sa) {
        const id = `${sa.clientEmail}\n${sa.privateKeyId}\n${sa.tokenUri}`;
        const cached = this.tokens.get(id);
        if (cached && this.now() < cached.renewAt)
            return Promise.resolve(cached.token);
        const pending = this.inFlight.get(id);
        if (pending)
            return pending;
        const fetching = this.fetch(id, sa).finally(() => this.inFlight.delete(id));
        this.inFlight.set(id, fetching);
        return fetching;
    }
    async fetch(id, sa) {
        const startedAt = this.now();
        const { token, expiresIn } = await this.fetcher(sa, startedAt);
        // A lifetime shorter than the margin is still used once, for this request, but never kept.
        const renewAt = startedAt + expiresIn * 1000 - this.marginMs;
        if (renewAt > this.now()) {
            if (this.tokens.size >= this.maxEntries)
                this.evictExpired();
            this.tokens.set(id, { token, renewAt });
        }
        return token;
    }
    evictExpired() {
        const now = this.now();
        for (const [id, entry] of this.tokens)
            if (entry.renewAt <= now)
                this.tokens.delete(id);
        // Still full of live tokens (keys rotated in bulk): drop the oldest insertion.
        if (this.tokens.size >= this.maxEntries)
            this.tokens.delete(this.tokens.keys().next().value);
    }
}
//# sourceMappingURL=token.js.map