import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_LEASE_TTL_MS } from './jobs/lease.js';

/** Every environment variable the server reads, parsed once. Names follow the ones operators of existing gateways know. */
export interface Config {
  port: number;
  host: string;
  /** Empty: SQLite at sqlitePath. postgres://... or mysql://... otherwise. */
  sqlDsn: string;
  /** LOG_SQL_DSN: a database of its own for the logs ('' = the main database). */
  logSqlDsn: string;
  sqlitePath: string;
  redisConnString: string;
  /** The longest a Redis command waits for its answer (REDIS_COMMAND_TIMEOUT seconds, 5; 0: no bound). */
  redisCommandTimeoutSeconds: number;
  sessionSecret: string;
  /** True when SESSION_SECRET was not given and a random one is in use (sessions die with the process). */
  sessionSecretGenerated: boolean;
  /** Mark the session cookie Secure (behind HTTPS). */
  sessionCookieSecure: boolean;
  syncFrequencySeconds: number;
  nodeType: 'master' | 'slave';
  /**
   * Processes serving this node (WORKERS; one per core by default, 1 for a single process). Several share the port
   * through node:cluster under a primary process (cluster/primary.ts).
   */
  workers: number;
  /** This process's worker number under a primary (1..workers), 0 when it is the node's only process. */
  workerIndex: number;
  /** Under a primary: the node's id, shared by its workers (their one name on the Redis bus); else empty. */
  nodeId: string;
  /** GET /metrics (Prometheus) is served to this bearer token only; unset: not served at all. */
  metricsToken: string;
  /**
   * Where relay call traces go by OTLP/HTTP: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else
   * OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; '' = no tracing. OTEL_SERVICE_NAME names the service (switchyard).
   */
  otelTracesEndpoint: string;
  otelServiceName: string;
  frontendBaseUrl: string;
  relayTimeoutSeconds: number;
  streamingTimeoutSeconds: number;
  logLevel: string;
  /** Folder holding the built console (index.html + assets). */
  webDist: string;
  /** Folder served under /portal/ (its index.html becomes the root page); null when PORTAL_DIR is unset. */
  portalDir: string | null;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** Quota given to the root account on first start. */
  rootInitialQuota: number;
  /**
   * Peers whose X-Forwarded-For is believed (TRUSTED_PROXIES): addresses, CIDRs and the words loopback, linklocal,
   * uniquelocal. Anyone else's header is ignored, so a client on the internet cannot pick the address that token
   * IP allow lists and logs see.
   */
  trustedProxies: string[];
  /** Minutes between automatic tests of every channel (CHANNEL_TEST_FREQUENCY); 0: only when an admin asks. */
  channelTestFrequencyMinutes: number;
  /** Minutes between automatic balance updates of every enabled channel (CHANNEL_UPDATE_FREQUENCY); 0: never. */
  channelUpdateFrequencyMinutes: number;
  /**
   * Drawing and music tasks are brought up to date from their upstreams by one node of the deployment every
   * TASK_POLL_INTERVAL seconds (15); UPDATE_TASK=false keeps this node out of it (as the established gateway's).
   */
  updateTask: boolean;
  taskPollIntervalSeconds: number;
  /**
   * How long a job lease lasts without renewal (JOB_LEASE_TTL, whole seconds, 40; 2 to 3600): when the node that
   * holds it dies, another master takes the job over within this plus a quarter of it (jobs/lease.ts).
   */
  jobLeaseTtlSeconds: number;
  /** Seconds to wait between two channels of an all-channel test (POLLING_INTERVAL). */
  pollingIntervalSeconds: number;
  /**
   * The longest a graceful shutdown may take (SHUTDOWN_TIMEOUT, seconds): calls in flight are drained until shortly
   * before it, then stopped and billed; what they owe is written; the process exits by then whatever happens.
   */
  shutdownTimeoutSeconds: number;
  /**
   * Calls in flight to one upstream origin at most (UPSTREAM_MAX_CONNECTIONS; 0: no limit). Each holds one
   * connection over HTTP/1.1. A call past it is refused at once (503 in the caller's format), never queued.
   */
  upstreamMaxConnections: number;
  /**
   * PostgreSQL and MySQL pool: connections open at most (SQL_MAX_OPEN_CONNS, 20) and the longest a query waits for
   * one (SQL_CONN_WAIT_TIMEOUT seconds, 10) before it fails instead of queueing on.
   */
  sqlMaxOpenConns: number;
  sqlConnWaitTimeoutSeconds: number;
  /**
   * SETTLEMENT_JOURNAL_DIR: where each process journals its settlements until they are written
   * (relay/settlement-journal/); '' = settlement-journal/ beside the SQLite file (the data folder).
   */
  settlementJournalDir: string;
  /** Settlements waiting to be written at most before new calls are refused (SETTLEMENT_MAX_PENDING). */
  settlementMaxPending: number;
  /**
   * How long a settlement waits at most to be written with the others of its batch (SETTLEMENT_INTERVAL_MS, 10 to
   * 60,000; 100 by default): longer means fewer, larger writes, and balances in the database that lag more.
   */
  settlementIntervalMs: number;
  /** Offer HTTP/2 to TLS upstreams (UPSTREAM_HTTP2=true|false): many calls then share one connection. */
  upstreamHttp2: boolean;
  /**
   * Slow or vanished clients (seconds): CLIENT_HEADERS_TIMEOUT to send a request's headers once connected (idle
   * and slowloris connections), CLIENT_REQUEST_TIMEOUT to send a whole request (headers and body), and
   * CLIENT_STALL_TIMEOUT that a client may leave a streamed answer unread before the call is ended as if it left.
   */
  clientHeadersTimeoutSeconds: number;
  clientRequestTimeoutSeconds: number;
  clientStallTimeoutSeconds: number;
  /**
   * Where Responses the gateway makes are kept for continuation (RESPONSES_STORE=database|redis): Redis when
   * REDIS_CONN_STRING is set, else the database, unless told otherwise.
   */
  responsesStore: 'database' | 'redis';
  /** GitHub's sign-in site (GITHUB_OAUTH_URL): the authorize page and the code exchange; GitHub Enterprise has its own. */
  githubOAuthUrl: string;
  /** GitHub's REST API (GITHUB_API_URL), where the signed-in GitHub account is read. */
  githubApiUrl: string;
  /** Cloudflare Turnstile's siteverify endpoint (TURNSTILE_VERIFY_URL overrides it, e.g. for a stand-in). */
  turnstileVerifyUrl: string;
  /**
   * Per client address: the console API and legacy billing (GLOBAL_API_RATE_LIMIT*, 180 per 180 s), the web pages
   * and static files (GLOBAL_WEB_RATE_LIMIT*, 60 per 180 s), and sign-in, registration, mailed codes, password reset
   * and third-party sign-in on top of the API's (CRITICAL_RATE_LIMIT*, 20 per 20 minutes).
   */
  globalApiRateLimit: RateLimitConfig;
  globalWebRateLimit: RateLimitConfig;
  criticalRateLimit: RateLimitConfig;
}

export interface RateLimitConfig {
  enabled: boolean;
  /** Requests admitted within any `durationSeconds`. */
  max: number;
  durationSeconds: number;
}

const serverRoot = path.resolve(import.meta.dirname, '..');

/** Sized for 5,000+ streams to one provider per process (docs/decisions.md, "Thousands of streams"). */
export const DEFAULT_UPSTREAM_MAX_CONNECTIONS = 8_000;
const DEFAULT_UPSTREAM_HTTP2 = false;

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${value}`);
  return n;
}

/** A non-negative number (fractions allowed), 0 when unset. */
function otlpTracesEndpoint(env: NodeJS.ProcessEnv): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : '';
}

/** WORKERS: a whole number of processes, at least 1; unset or 0 means one per core the process may use. */
function workerCount(value: string | undefined): number {
  const n = positive(value);
  if (n === 0) return availableParallelism();
  if (!Number.isInteger(n)) throw new Error(`WORKERS is not a whole number: ${value}`);
  return n;
}

function positive(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a non-negative number: ${value}`);
  return n;
}

/** Seconds, fractions allowed (`0.5` is half a second, not zero); `fallback` when unset. */
function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  return positive(value);
}

export const JOB_LEASE_TTL_RANGE = { min: 2, max: 3600 } as const;

export const SETTLEMENT_INTERVAL_RANGE = { min: 10, max: 60_000 } as const;

/** A whole number within `range` (a start that would misread it is refused), or `fallback` when unset. */
function wholeWithin(name: string, unit: string, value: string | undefined, fallback: number, range: { min: number; max: number }): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  const { min, max } = range;
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be whole ${unit} from ${min} to ${max}, not ${value}`);
  return n;
}

/** Reverse proxies on the same host or a private network are trusted unless told otherwise. */
const DEFAULT_TRUSTED_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];

function trustedProxies(value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) return DEFAULT_TRUSTED_PROXIES;
  return list.length === 1 && list[0] === 'none' ? [] : list;
}

function responsesStore(value: string | undefined, redis: string): Config['responsesStore'] {
  const v = (value ?? '').trim();
  if (v === '') return redis ? 'redis' : 'database';
  if (v !== 'database' && v !== 'redis') throw new Error(`RESPONSES_STORE must be database or redis, not ${v}`);
  if (v === 'redis' && !redis) throw new Error('RESPONSES_STORE=redis needs REDIS_CONN_STRING');
  return v;
}

/** An http(s) base URL without its trailing slash; `fallback` when unset. */
function baseUrl(value: string | undefined, fallback: string): string {
  const v = (value ?? '').trim().replace(/\/+$/, '');
  if (v === '') return fallback;
  if (!/^https?:\/\/[^/]/.test(v)) throw new Error(`not an http(s) URL: ${v}`);
  return v;
}

/** `<PREFIX>_ENABLE` (true unless false or 0), `<PREFIX>` (count) and `<PREFIX>_DURATION` (seconds). */
function rateLimit(env: NodeJS.ProcessEnv, prefix: string, max: number, durationSeconds: number): RateLimitConfig {
  const enable = env[`${prefix}_ENABLE`]?.trim().toLowerCase();
  return {
    enabled: enable !== 'false' && enable !== '0',
    max: Math.max(1, int(env[prefix], max)),
    durationSeconds: seconds(env[`${prefix}_DURATION`], durationSeconds) || durationSeconds,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const secret = env.SESSION_SECRET?.trim() ?? '';
  if (secret === 'random_string') {
    throw new Error('SESSION_SECRET must not be the literal "random_string": set a real secret');
  }
  return {
    port: int(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    sqlDsn: env.SQL_DSN?.trim() ?? '',
    logSqlDsn: env.LOG_SQL_DSN?.trim() ?? '',
    // The established default carries driver parameters (one-api.db?_busy_timeout=5000): the file is the part before `?`.
    sqlitePath: env.SQLITE_PATH?.trim().split('?')[0] || path.resolve(process.cwd(), 'data/switchyard.db'),
    redisConnString: env.REDIS_CONN_STRING?.trim() ?? '',
    redisCommandTimeoutSeconds: env.REDIS_COMMAND_TIMEOUT?.trim() ? positive(env.REDIS_COMMAND_TIMEOUT) : 5,
    sessionSecret: secret || randomBytes(32).toString('hex'),
    sessionSecretGenerated: secret === '',
    sessionCookieSecure: env.SESSION_COOKIE_SECURE === 'true',
    syncFrequencySeconds: int(env.SYNC_FREQUENCY, 60),
    nodeType: env.NODE_TYPE === 'slave' ? 'slave' : 'master',
    workers: workerCount(env.WORKERS),
    workerIndex: int(env.SWITCHYARD_WORKER, 0),
    nodeId: env.SWITCHYARD_NODE_ID ?? '',
    metricsToken: env.METRICS_TOKEN?.trim() ?? '',
    otelTracesEndpoint: otlpTracesEndpoint(env),
    otelServiceName: env.OTEL_SERVICE_NAME?.trim() || 'switchyard',
    frontendBaseUrl: (env.FRONTEND_BASE_URL ?? '').replace(/\/+$/, ''),
    relayTimeoutSeconds: seconds(env.RELAY_TIMEOUT, 0),
    streamingTimeoutSeconds: seconds(env.STREAMING_TIMEOUT, 60),
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: env.WEB_DIST ?? path.resolve(serverRoot, '../web/dist'),
    portalDir: env.PORTAL_DIR?.trim() ? path.resolve(env.PORTAL_DIR.trim()) : null,
    bodyLimit: int(env.MAX_REQUEST_BODY_MB, 32) * 1024 * 1024,
    rootInitialQuota: int(env.ROOT_INITIAL_QUOTA, 100_000_000),
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
    channelTestFrequencyMinutes: positive(env.CHANNEL_TEST_FREQUENCY),
    channelUpdateFrequencyMinutes: positive(env.CHANNEL_UPDATE_FREQUENCY),
    pollingIntervalSeconds: positive(env.POLLING_INTERVAL),
    updateTask: env.UPDATE_TASK?.trim() !== 'false',
    taskPollIntervalSeconds: positive(env.TASK_POLL_INTERVAL) || 15,
    jobLeaseTtlSeconds: wholeWithin('JOB_LEASE_TTL', 'seconds', env.JOB_LEASE_TTL, DEFAULT_LEASE_TTL_MS / 1000, JOB_LEASE_TTL_RANGE),
    shutdownTimeoutSeconds: positive(env.SHUTDOWN_TIMEOUT) || 30,
    upstreamMaxConnections: int(env.UPSTREAM_MAX_CONNECTIONS, DEFAULT_UPSTREAM_MAX_CONNECTIONS),
    sqlMaxOpenConns: Math.max(1, int(env.SQL_MAX_OPEN_CONNS, 20)),
    sqlConnWaitTimeoutSeconds: positive(env.SQL_CONN_WAIT_TIMEOUT) || 10,
    settlementMaxPending: Math.max(1, int(env.SETTLEMENT_MAX_PENDING, 50_000)),
    settlementIntervalMs: wholeWithin('SETTLEMENT_INTERVAL_MS', 'milliseconds', env.SETTLEMENT_INTERVAL_MS, 100, SETTLEMENT_INTERVAL_RANGE),
    settlementJournalDir: env.SETTLEMENT_JOURNAL_DIR?.trim() ? path.resolve(env.SETTLEMENT_JOURNAL_DIR.trim()) : '',
    upstreamHttp2: env.UPSTREAM_HTTP2 === undefined || env.UPSTREAM_HTTP2.trim() === '' ? DEFAULT_UPSTREAM_HTTP2 : env.UPSTREAM_HTTP2 === 'true',
    clientHeadersTimeoutSeconds: positive(env.CLIENT_HEADERS_TIMEOUT) || 60,
    clientRequestTimeoutSeconds: positive(env.CLIENT_REQUEST_TIMEOUT) || 300,
    clientStallTimeoutSeconds: positive(env.CLIENT_STALL_TIMEOUT) || 60,
    responsesStore: responsesStore(env.RESPONSES_STORE, env.REDIS_CONN_STRING?.trim() ?? ''),
    githubOAuthUrl: baseUrl(env.GITHUB_OAUTH_URL, 'https://github.com'),
    githubApiUrl: baseUrl(env.GITHUB_API_URL, 'https://api.github.com'),
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL?.trim() || 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    globalApiRateLimit: rateLimit(env, 'GLOBAL_API_RATE_LIMIT', 180, 180),
    globalWebRateLimit: rateLimit(env, 'GLOBAL_WEB_RATE_LIMIT', 60, 180),
    criticalRateLimit: rateLimit(env, 'CRITICAL_RATE_LIMIT', 20, 20 * 60),
  };
}
