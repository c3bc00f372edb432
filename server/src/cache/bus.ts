import type { Redis } from 'ioredis';

/**
 * Cross-node invalidation. Every node keeps its caches in memory; when one node changes shared state it publishes
 * a small message and the others refresh. With no Redis configured the bus is local (single node).
 */
export interface Bus {
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, handler: (message: string) => void): void;
  close(): Promise<void>;
  /** Id of this process on the bus; messages carry it so a node ignores its own. */
  readonly nodeId: string;
}

type Handler = (message: string) => void;

export class LocalBus implements Bus {
  readonly nodeId = 'local';
  private readonly handlers = new Map<string, Handler[]>();
  async publish(): Promise<void> {
    // Single node: the publisher has already applied the change itself.
  }
  subscribe(topic: string, handler: Handler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }
  async close(): Promise<void> {}
}

const CHANNEL_PREFIX = 'switchyard:';

export class RedisBus implements Bus {
  readonly nodeId = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Handler[]>();

  constructor(RedisClient: typeof Redis, url: string) {
    this.pub = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub.on('message', (channel: string, raw: string) => {
      const topic = channel.slice(CHANNEL_PREFIX.length);
      const sep = raw.indexOf('|');
      if (sep < 0 || raw.slice(0, sep) === this.nodeId) return;
      for (const h of this.handlers.get(topic) ?? []) h(raw.slice(sep + 1));
    });
  }

  async publish(topic: string, message: string): Promise<void> {
    await this.pub.publish(CHANNEL_PREFIX + topic, `${this.nodeId}|${message}`);
  }

  subscribe(topic: string, handler: Handler): void {
    const list = this.handlers.get(topic);
    if (list) list.push(handler);
    else {
      this.handlers.set(topic, [handler]);
      void this.sub.subscribe(CHANNEL_PREFIX + topic);
    }
  }

  /** Resolves once subscriptions are live (tests use it to avoid racing the first publish). */
  async ready(): Promise<void> {
    await this.sub.ping();
  }

  async close(): Promise<void> {
    this.sub.disconnect();
    this.pub.disconnect();
  }
}

/** Redis is only loaded when configured (the client costs memory a single node does not need). */
export async function createBus(redisUrl: string): Promise<Bus> {
  if (!redisUrl) return new LocalBus();
  const { Redis } = await import('ioredis');
  return new RedisBus(Redis, redisUrl);
}
