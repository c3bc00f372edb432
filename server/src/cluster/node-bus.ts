import type { Bus, BusHandler } from '../cache/bus.js';
import type { IpcBus } from './ipc-bus.js';

/**
 * The cache bus of a worker on a node that shares Redis with other nodes: the node's other workers hear a change
 * through the primary, which answers once they have applied it (ipc-bus.ts), and the other nodes through Redis. The
 * node's workers share one id on Redis, so each ignores the copy its siblings send there.
 */
export class NodeBus implements Bus {
  constructor(
    private readonly siblings: IpcBus,
    private readonly nodes: Bus,
  ) {}

  get nodeId(): string {
    return this.nodes.nodeId;
  }

  async publish(topic: string, message: string): Promise<void> {
    await Promise.all([this.siblings.publish(topic, message), this.nodes.publish(topic, message)]);
  }

  subscribe(topic: string, handler: BusHandler): void {
    this.siblings.subscribe(topic, handler);
    this.nodes.subscribe(topic, handler);
  }

  async ready(): Promise<void> {
    await this.nodes.ready?.();
  }

  async ping(): Promise<void> {
    await this.nodes.ping?.();
  }

  async close(): Promise<void> {
    await Promise.all([this.siblings.close(), this.nodes.close()]);
  }
}
