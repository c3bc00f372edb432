/*
 * One interface for every rate limit (console, web pages, critical routes, model requests): sliding logs of event
 * times per key, as the established gateway keeps them (a key admits `max` events within any `windowMs`; a refused
 * event is not recorded). In memory on one node (memory.ts), in Redis when configured (redis.ts), so every node
 * counts against the same totals.
 */

export interface LimitWindow {
  key: string;
  max: number;
  windowMs: number;
}

/** What `admit` decided: admitted, or which window was full. */
export const ADMITTED = 0;
export const WATCHED_FULL = 1;
export const COUNTED_FULL = 2;
export type Verdict = typeof ADMITTED | typeof WATCHED_FULL | typeof COUNTED_FULL;

export interface RateLimiter {
  /**
   * Admits one event when both windows have room, and then records it in `counted`. `watched` is only looked at
   * (events recorded later with `record`, e.g. successful calls). Either may be null. Synchronous in memory.
   */
  admit(watched: LimitWindow | null, counted: LimitWindow | null): Verdict | Promise<Verdict>;
  /** How long until the window has room again, in ms (0: it has). Asked after a refusal, for Retry-After. */
  waitMs(window: LimitWindow): number | Promise<number>;
  /** Records an event in a window without asking. */
  record(window: LimitWindow): void;
  close(): Promise<void>;
}

/** Whole seconds until the window has room (Retry-After), 0 when it has. Never fails (a limiter that cannot tell says 0). */
export function retryAfterSeconds(limiter: RateLimiter, window: LimitWindow): number | Promise<number> {
  const seconds = (ms: number) => Math.ceil(ms / 1000);
  const wait = limiter.waitMs(window);
  return typeof wait === 'number' ? seconds(wait) : wait.then(seconds, () => 0);
}
