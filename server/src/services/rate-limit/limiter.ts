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
  /** Records an event in a window without asking. */
  record(window: LimitWindow): void;
  close(): Promise<void>;
}
