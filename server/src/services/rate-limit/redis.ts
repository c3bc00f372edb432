import type { Redis } from 'ioredis';
import { ADMITTED, type LimitWindow, type RateLimiter, type Verdict } from './limiter.js';

/*
 * Limits shared by every node: one Redis list of event times per key (newest first), changed only by the Lua
 * scripts below, so a check and its record are one atomic step whichever node makes it. Times are Redis's clock,
 * so nodes whose clocks differ still agree.
 */

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** KEYS: watched, counted; ARGV: watched max, window (ms), counted max, window (ms); a max of 0 skips its key. */
const ADMIT = `${NOW}
local function full(key, max, window)
  if redis.call('LLEN', key) < max then return false end
  local oldest = tonumber(redis.call('LINDEX', key, max - 1))
  return oldest ~= nil and now - oldest < window
end
local watchedMax, countedMax = tonumber(ARGV[1]), tonumber(ARGV[3])
if watchedMax > 0 and full(KEYS[1], watchedMax, tonumber(ARGV[2])) then return 1 end
if countedMax > 0 then
  if full(KEYS[2], countedMax, tonumber(ARGV[4])) then return 2 end
  redis.call('LPUSH', KEYS[2], now)
  redis.call('LTRIM', KEYS[2], 0, countedMax - 1)
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return 0
`;

/** KEYS: the key; ARGV: max, window (ms). The ms until the window has room (0: it has). */
const WAIT = `${NOW}
local max = tonumber(ARGV[1])
if redis.call('LLEN', KEYS[1]) < max then return 0 end
local oldest = tonumber(redis.call('LINDEX', KEYS[1], max - 1))
if oldest == nil then return 0 end
return math.max(0, tonumber(ARGV[2]) - (now - oldest))
`;

/** KEYS: the key; ARGV: max, window (ms). */
const RECORD = `${NOW}
redis.call('LPUSH', KEYS[1], now)
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
`;

type LimitRedis = Redis & {
  rateLimitAdmit(watched: string, counted: string, watchedMax: number, watchedMs: number, countedMax: number, countedMs: number): Promise<number>;
  rateLimitRecord(key: string, max: number, windowMs: number): Promise<number>;
  rateLimitWait(key: string, max: number, windowMs: number): Promise<number>;
};

/** How long the limiter stops asking a Redis that failed (so each call does not wait for it in turn). */
const PAUSE_MS = 5_000;

/**
 * A limit must never take the gateway down: when Redis cannot answer (down, or slower than its command timeout),
 * every event is admitted and a warning is logged once per outage.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: LimitRedis;
  private pausedUntil = 0;
  private failing = false;

  constructor(
    redis: Redis,
    private readonly warn: (message: string, err?: unknown) => void,
    private readonly prefix = 'switchyard:rate-limit:',
  ) {
    redis.defineCommand('rateLimitAdmit', { numberOfKeys: 2, lua: ADMIT });
    redis.defineCommand('rateLimitRecord', { numberOfKeys: 1, lua: RECORD });
    redis.defineCommand('rateLimitWait', { numberOfKeys: 1, lua: WAIT });
    // Without a listener ioredis prints every failed reconnect to stderr.
    redis.on('error', (err: Error) => this.failed(err));
    this.redis = redis as LimitRedis;
  }

  admit(watched: LimitWindow | null, counted: LimitWindow | null): Verdict | Promise<Verdict> {
    if (!this.available()) return ADMITTED;
    const p = this.prefix;
    return this.redis
      .rateLimitAdmit(
        watched ? p + watched.key : p,
        counted ? p + counted.key : p,
        watched?.max ?? 0,
        watched?.windowMs ?? 0,
        counted?.max ?? 0,
        counted?.windowMs ?? 0,
      )
      .then(
        (verdict) => {
          this.recovered();
          return verdict as Verdict;
        },
        (err: unknown) => {
          this.failed(err);
          return ADMITTED;
        },
      );
  }

  waitMs(window: LimitWindow): number | Promise<number> {
    if (!this.available()) return 0;
    return this.redis.rateLimitWait(this.prefix + window.key, window.max, window.windowMs).then(
      (ms) => ms,
      (err: unknown) => {
        this.failed(err);
        return 0;
      },
    );
  }

  record(window: LimitWindow): void {
    if (!this.available()) return;
    this.redis.rateLimitRecord(this.prefix + window.key, window.max, window.windowMs).then(
      () => this.recovered(),
      (err: unknown) => this.failed(err),
    );
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private available(): boolean {
    if (this.redis.status !== 'ready') {
      this.failed(new Error(`Redis connection is ${this.redis.status}`));
      return false;
    }
    return Date.now() >= this.pausedUntil;
  }

  private failed(err: unknown): void {
    this.pausedUntil = Date.now() + PAUSE_MS;
    if (this.failing) return;
    this.failing = true;
    this.warn('rate limits cannot reach Redis: requests are admitted without limits until it is back', err);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.warn('rate limits reach Redis again');
  }
}
