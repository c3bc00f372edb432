import { randomBytes } from 'node:crypto';
import path from 'node:path';
const serverRoot = path.resolve(import.meta.dirname, '..');
/** Sized for 5,000+ streams to one provider per process (docs/decisions.md, "Thousands of streams"). */
export const DEFAULT_UPSTREAM_MAX_CONNECTIONS = 8_000;
const DEFAULT_UPSTREAM_HTTP2 = false;
function int(value, fallback) {
    if (value === undefined || value.trim() === '')
        return fallback;
    const n = Number.parseInt(value, 10);
    if (!Number.isFinite(n))
        throw new Error(`not a number: ${value}`);
    return n;
}
/** A non-negative number (fractions allowed), 0 when unset. */
function positive(value) {
    if (value === undefined || value.trim() === '')
        return 0;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
        throw new Error(`not a non-negative number: ${value}`);
    return n;
}
/** Seconds, fractions allowed (`0.5` is half a second, not zero); `fallback` when unset. */
function seconds(value, fallback) {
    if (value === undefined || value.trim() === '')
        return fallback;
    return positive(value);
}
/** Reverse proxies on the same host or a private network are trusted unless told otherwise. */
const DEFAULT_TRUSTED_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];
function trustedProxies(value) {
    const list = (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (list.length === 0)
        return DEFAULT_TRUSTED_PROXIES;
    return list.length === 1 && list[0] === 'none' ? [] : list;
}
function responsesStore(value, redis) {
    const v = (value ?? '').trim();
    if (v === '')
        return redis ? 'redis' : 'database';
    if (v !== 'database' && v !== 'redis')
        throw new Error(`RESPONSES_STORE must be database or redis, not ${v}`);
    if (v === 'redis' && !redis)
        throw new Error('RESPONSES_STORE=redis needs REDIS_CONN_STRING');
    return v;
}
/** An http(s) base URL without its trailing slash; `fallback` when unset. */
function baseUrl(value, fallback) {
    const v = (value ?? '').trim().replace(/\/+$/, '');
    if (v === '')
        return fallback;
    if (!/^https?:\/\/[^/]/.test(v))
        throw new Error(`not an http(s) URL: ${v}`);
    return v;
}
export function loadConfig(env = process.env) {
    const secret = env.SESSION_SECRET?.trim() ?? '';
    if (secret === 'random_string') {
        throw new Error('SESSION_SECRET must not be the literal "random_string": set a real secret');
    }
    return {
        port: int(env.PORT, 3000),
        host: env.HOST ?? '0.0.0.0',
        sqlDsn: env.SQL_DSN?.trim() ?? '',
        sqlitePath: env.SQLITE_PATH?.trim() || path.resolve(process.cwd(), 'data/switchyard.db'),
        redisConnString: env.REDIS_CONN_STRING?.trim() ?? '',
        sessionSecret: secret || randomBytes(32).toString('hex'),
        sessionSecretGenerated: secret === '',
        sessionCookieSecure: env.SESSION_COOKIE_SECURE === 'true',
        syncFrequencySeconds: int(env.SYNC_FREQUENCY, 60),
        nodeType: env.NODE_TYPE === 'slave' ? 'slave' : 'master',
        frontendBaseUrl: (env.FRONTEND_BASE_URL ?? '').replace(/\/+$/, ''),
        relayTimeoutSeconds: seconds(env.RELAY_TIMEOUT, 0),
        streamingTimeoutSeconds: seconds(env.STREAMING_TIMEOUT, 60),
        logLevel: env.LOG_LEVEL ?? 'info',
        webDist: env.WEB_DIST ?? path.resolve(serverRoot, '../web/dist'),
        portalDir: env.PORTAL_DIR ?? path.resolve(serverRoot, 'portal'),
        bodyLimit: int(env.MAX_REQUEST_BODY_MB, 32) * 1024 * 1024,
        rootInitialQuota: int(env.ROOT_INITIAL_QUOTA, 100_000_000),
        trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
        channelTestFrequencyMinutes: positive(env.CHANNEL_TEST_FREQUENCY),
        channelUpdateFrequencyMinutes: positive(env.CHANNEL_UPDATE_FREQUENCY),
        pollingIntervalSeconds: positive(env.POLLING_INTERVAL),
        shutdownTimeoutSeconds: positive(env.SHUTDOWN_TIMEOUT) || 30,
        upstreamMaxConnections: int(env.UPSTREAM_MAX_CONNECTIONS, DEFAULT_UPSTREAM_MAX_CONNECTIONS),
        sqlMaxOpenConns: Math.max(1, int(env.SQL_MAX_OPEN_CONNS, 20)),
        sqlConnWaitTimeoutSeconds: positive(env.SQL_CONN_WAIT_TIMEOUT) || 10,
        settlementMaxPending: Math.max(1, int(env.SETTLEMENT_MAX_PENDING, 50_000)),
        upstreamHttp2: env.UPSTREAM_HTTP2 === undefined || env.UPSTREAM_HTTP2.trim() === '' ? DEFAULT_UPSTREAM_HTTP2 : env.UPSTREAM_HTTP2 === 'true',
        clientHeadersTimeoutSeconds: positive(env.CLIENT_HEADERS_TIMEOUT) || 60,
        clientRequestTimeoutSeconds: positive(env.CLIENT_REQUEST_TIMEOUT) || 300,
        clientStallTimeoutSeconds: positive(env.CLIENT_STALL_TIMEOUT) || 60,
        responsesStore: responsesStore(env.RESPONSES_STORE, env.REDIS_CONN_STRING?.trim() ?? ''),
        githubOAuthUrl: baseUrl(env.GITHUB_OAUTH_URL, 'https://github.com'),
        githubApiUrl: baseUrl(env.GITHUB_API_URL, 'https://api.github.com'),
        turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL?.trim() || 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    };
}
//# sourceMappingURL=config.js.map