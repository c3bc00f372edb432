import type { Worker } from 'node:cluster';
import type { BusAck, BusMessage } from './messages.js';

/*
 * The primary's half of the workers' cache bus (ipc-bus.ts is the workers' half). A message one worker publishes
 * is passed to every other worker; each answers once it has applied it (dropped its cached copy, reloaded the
 * table), and when all have, the publisher is told — so a console change is acknowledged only once no worker of
 * the node can still serve from what it revoked. A worker that does not answer within the timeout (stuck, or busy
 * past it) does not hold the change up further: the publisher is told anyway and the worker is named in the log.
 */

export const BUS_ACK_TIMEOUT_MS = 1000;

interface Relayed {
  from: Worker;
  /** The publisher's id of the message. */
  id: number;
  waiting: Set<Worker>;
  timer: NodeJS.Timeout;
}

export interface BusRelayLog {
  warn(obj: object, msg: string): void;
}

export class BusRelay {
  private readonly relayed = new Map<number, Relayed>();
  private nextId = 1;

  constructor(
    private readonly workers: () => Iterable<Worker>,
    /** Whether a worker serves calls yet; one still starting gets the message but is not waited for. */
    private readonly serving: (worker: Worker) => boolean,
    private readonly log: BusRelayLog,
    private readonly timeoutMs = BUS_ACK_TIMEOUT_MS,
  ) {}

  /** A worker published `m`: pass it on, and answer the publisher when every other worker has applied it. */
  publish(from: Worker, m: BusMessage): void {
    const id = this.nextId++;
    const waiting = new Set<Worker>();
    for (const w of this.workers()) {
      if (w === from || !w.isConnected()) continue;
      w.send({ ...m, id } satisfies BusMessage);
      if (this.serving(w)) waiting.add(w);
    }
    if (waiting.size === 0) {
      acknowledge(from, m.id);
      return;
    }
    const timer = setTimeout(() => this.timedOut(id), this.timeoutMs);
    timer.unref();
    this.relayed.set(id, { from, id: m.id, waiting, timer });
  }

  /** A worker applied the relayed message `id`. */
  applied(by: Worker, id: number): void {
    const r = this.relayed.get(id);
    if (!r) return;
    r.waiting.delete(by);
    if (r.waiting.size === 0) this.done(id, r);
  }

  /** A worker exited: nothing it would have applied is waited for. */
  gone(worker: Worker): void {
    for (const [id, r] of this.relayed) {
      if (r.from === worker) {
        clearTimeout(r.timer);
        this.relayed.delete(id);
      } else if (r.waiting.delete(worker) && r.waiting.size === 0) this.done(id, r);
    }
  }

  private timedOut(id: number): void {
    const r = this.relayed.get(id);
    if (!r) return;
    const late = [...r.waiting].map((w) => w.process.pid);
    this.log.warn({ workers: late, timeoutMs: this.timeoutMs }, 'workers did not confirm a cache change in time; acknowledging it without them');
    this.done(id, r);
  }

  private done(id: number, r: Relayed): void {
    clearTimeout(r.timer);
    this.relayed.delete(id);
    acknowledge(r.from, r.id);
  }
}

function acknowledge(to: Worker, id: number): void {
  if (to.isConnected()) to.send({ sy: 'bus-ack', id } satisfies BusAck);
}
