import type { StreamCut } from './formats/passthrough-meter.js';

/** What a call that meets a shutdown is told, in its format's error body or stream error event (clients retry 503s). */
export const SHUTDOWN_MESSAGE = '服务正在关闭，请稍后重试';
export const SHUTDOWN_CUT: StreamCut = { status: 503, message: SHUTDOWN_MESSAGE };

/**
 * The relay calls this process is serving, each with a way to stop it. A shutdown that reaches its deadline stops
 * those still running: a call still waiting for its upstream is answered 503 and refunded; a stream under way is
 * ended with its format's error event and billed for what it delivered, as a client that left is billed.
 */
export class InFlightCalls {
  private readonly calls = new Set<(reason: StreamCut) => void>();
  private stopReason: StreamCut | null = null;

  /** Registers a call; it is stopped at once when the process is already stopping everything. */
  add(stop: (reason: StreamCut) => void): void {
    this.calls.add(stop);
    if (this.stopReason) stop(this.stopReason);
  }

  delete(stop: (reason: StreamCut) => void): void {
    this.calls.delete(stop);
  }

  get size(): number {
    return this.calls.size;
  }

  /** Stops every call now and every call that starts later; answers how many were running. */
  stopAll(reason: StreamCut = SHUTDOWN_CUT): number {
    this.stopReason = reason;
    const running = [...this.calls];
    for (const stop of running) stop(reason);
    return running.length;
  }
}
