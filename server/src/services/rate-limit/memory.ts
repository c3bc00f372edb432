import { ADMITTED, COUNTED_FULL, WATCHED_FULL, type LimitWindow, type RateLimiter, type Verdict } from './limiter.js';

/**
 * The times of a key's latest events, newest last, in a ring that grows to `max` only as events come (a flood of
 * addresses that each send one request costs a few bytes per address, not `max` slots).
 */
class SlidingLog {
  private times = new Float64Array(4);
  /** Index of the oldest kept time. */
  private start = 0;
  size = 0;
  /** The time of the newest event: a log idle for longer than its window is dropped by the sweep. */
  last = 0;

  constructor(public windowMs: number) {}

  /** Whether a window of `max` events per `windowMs` has room at `now`. */
  hasRoom(max: number, windowMs: number, now: number): boolean {
    return this.waitMs(max, windowMs, now) === 0;
  }

  /** How long until such a window has room (0: it has). */
  waitMs(max: number, windowMs: number, now: number): number {
    if (this.size < max) return 0;
    // The max-th newest event: the window is full while it is younger than the window.
    return Math.max(0, windowMs - (now - this.times[(this.start + this.size - max) % this.times.length]));
  }

  push(max: number, now: number): void {
    const capacity = this.times.length;
    if (this.size < capacity) {
      this.times[(this.start + this.size) % capacity] = now;
      this.size++;
    } else if (capacity < max) {
      this.grow(Math.min(max, capacity * 2));
      this.times[this.size++] = now;
    } else {
      this.times[this.start] = now;
      this.start = (this.start + 1) % capacity;
    }
    this.last = now;
  }

  private grow(capacity: number): void {
    const next = new Float64Array(capacity);
    const old = this.times;
    for (let i = 0; i < this.size; i++) next[i] = old[(this.start + i) % old.length];
    this.times = next;
    this.start = 0;
  }
}

/** How often idle keys are dropped. */
const SWEEP_MS = 60_000;

/** The limits of one node, in memory: keys idle for longer than their window are dropped every minute. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, SlidingLog>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Keys held (for tests of the sweep). */
  get keys(): number {
    return this.logs.size;
  }

  admit(watched: LimitWindow | null, counted: LimitWindow | null): Verdict {
    const now = this.now();
    if (watched) {
      const log = this.logs.get(watched.key);
      if (log && !log.hasRoom(watched.max, watched.windowMs, now)) return WATCHED_FULL;
    }
    if (counted) {
      const log = this.logFor(counted);
      if (!log.hasRoom(counted.max, counted.windowMs, now)) return COUNTED_FULL;
      log.push(counted.max, now);
    }
    return ADMITTED;
  }

  waitMs(window: LimitWindow): number {
    return this.logs.get(window.key)?.waitMs(window.max, window.windowMs, this.now()) ?? 0;
  }

  record(window: LimitWindow): void {
    this.logFor(window).push(window.max, this.now());
  }

  sweep(): void {
    const now = this.now();
    for (const [key, log] of this.logs) if (now - log.last >= log.windowMs) this.logs.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private logFor(window: LimitWindow): SlidingLog {
    let log = this.logs.get(window.key);
    if (!log) {
      log = new SlidingLog(window.windowMs);
      this.logs.set(window.key, log);
    } else {
      // The window can change with the options; the kept times stay valid.
      log.windowMs = window.windowMs;
    }
    return log;
  }
}
