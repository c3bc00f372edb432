import type { Bus } from '../cache/bus.js';
import { isClusterMessage, type BusMessage } from './messages.js';

type Handler = (message: string) => void;

/**
 * The cache bus between the workers of one node when there is no Redis: a message goes to the primary, which passes
 * it to every other worker (cluster/primary.ts). Best effort like the Redis bus: the periodic resync is the net.
 */
export class IpcBus implements Bus {
  readonly nodeId = `worker-${process.pid}`;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly onMessage = (m: unknown) => {
    if (!isClusterMessage(m) || m.sy !== 'bus') return;
    for (const h of this.handlers.get(m.topic) ?? []) h(m.message);
  };

  constructor(private readonly channel: NodeJS.Process = process) {
    channel.on('message', this.onMessage);
  }

  async publish(topic: string, message: string): Promise<void> {
    const m: BusMessage = { sy: 'bus', topic, message };
    if (this.channel.connected) this.channel.send?.(m);
  }

  subscribe(topic: string, handler: Handler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  async close(): Promise<void> {
    this.channel.off('message', this.onMessage);
  }
}
