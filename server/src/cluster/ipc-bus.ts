import type { Bus, BusHandler } from '../cache/bus.js';
import { BUS_ACK_TIMEOUT_MS } from './bus-relay.js';
import { isClusterMessage, type BusApplied, type BusMessage } from './messages.js';

/** A primary that does not answer at all (stuck, or gone) holds a publish this long at most. */
const PRIMARY_SILENT_MS = BUS_ACK_TIMEOUT_MS + 500;

/**
 * The cache bus between the workers of one node: a message goes to the primary, which passes it to every other
 * worker (cluster/bus-relay.ts). A publish resolves once every other worker has applied it, so a change the console
 * acknowledges is in force on the whole node; it never fails (a worker or primary that does not answer is waited
 * for a bounded time), and the periodic resync stays the net for anything lost.
 */
export class IpcBus implements Bus {
  readonly nodeId = `worker-${process.pid}`;
  private readonly handlers = new Map<string, BusHandler[]>();
  private readonly waiting = new Map<number, () => void>();
  private nextId = 1;
  private readonly onMessage = (m: unknown) => {
    if (!isClusterMessage(m)) return;
    if (m.sy === 'bus') void this.apply(m);
    else if (m.sy === 'bus-ack') this.waiting.get(m.id)?.();
  };

  constructor(private readonly channel: NodeJS.Process = process) {
    channel.on('message', this.onMessage);
  }

  publish(topic: string, message: string): Promise<void> {
    if (!this.channel.connected || !this.channel.send) return Promise.resolve();
    const id = this.nextId++;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), PRIMARY_SILENT_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve();
      };
      this.waiting.set(id, done);
      this.channel.send!({ sy: 'bus', id, topic, message } satisfies BusMessage);
    });
  }

  subscribe(topic: string, handler: BusHandler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  /** Runs the handlers (a reload included), then tells the primary the message is applied here. */
  private async apply(m: BusMessage): Promise<void> {
    await Promise.allSettled((this.handlers.get(m.topic) ?? []).map(async (h) => h(m.message)));
    if (this.channel.connected) this.channel.send?.({ sy: 'bus-applied', id: m.id } satisfies BusApplied);
  }

  async close(): Promise<void> {
    this.channel.off('message', this.onMessage);
    for (const done of [...this.waiting.values()]) done();
  }
}
