import { ADMITTED, type LimitWindow, type RateLimiter, type Verdict } from '../services/rate-limit/limiter.js';
import { isClusterMessage, type LimitRequest } from './messages.js';

/** The longest a limit check waits for the primary; then the request is admitted (as with Redis unreachable). */
const REPLY_TIMEOUT_MS = 500;

/**
 * The limits of a node whose workers share no Redis: every check is asked of the primary's in-memory limiter, so
 * the node admits what one process would (not one limit per worker).
 */
export class IpcRateLimiter implements RateLimiter {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(n: number): void; timer: NodeJS.Timeout }>();
  private readonly onMessage = (m: unknown) => {
    if (!isClusterMessage(m) || m.sy !== 'limit-reply') return;
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    clearTimeout(w.timer);
    w.resolve(m.result);
  };

  constructor(private readonly channel: NodeJS.Process = process) {
    channel.on('message', this.onMessage);
  }

  admit(watched: LimitWindow | null, counted: LimitWindow | null): Promise<Verdict> {
    return this.ask('admit', [watched, counted], ADMITTED) as Promise<Verdict>;
  }

  waitMs(window: LimitWindow): Promise<number> {
    return this.ask('waitMs', [window], 0);
  }

  record(window: LimitWindow): void {
    this.send({ sy: 'limit', id: 0, op: 'record', args: [window] });
  }

  async close(): Promise<void> {
    this.channel.off('message', this.onMessage);
    for (const [, w] of this.waiting) {
      clearTimeout(w.timer);
      w.resolve(0);
    }
    this.waiting.clear();
  }

  private ask(op: LimitRequest['op'], args: unknown[], fallback: number): Promise<number> {
    const id = this.nextId++;
    return new Promise<number>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(fallback);
      }, REPLY_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { resolve, timer });
      if (!this.send({ sy: 'limit', id, op, args })) {
        this.waiting.delete(id);
        clearTimeout(timer);
        resolve(fallback);
      }
    });
  }

  private send(m: LimitRequest): boolean {
    if (!this.channel.connected || !this.channel.send) return false;
    this.channel.send(m);
    return true;
  }
}
