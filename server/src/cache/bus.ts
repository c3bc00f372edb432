import type { Redis } from 'ioredis';

/** What a subscriber does with a message; a promise when applying it takes a read (a reload). */
export type BusHandler = (message: string) => void | Promise<void>;

/**
 * Cross-node invalidation. Every node keeps its caches in memory; when one node changes shared state it publishes
 * a small message and the others refresh. With no Redis configured the bus is local (single node). Between the
 * workers of one node a publish resolves once every other worker has applied it (cluster/ipc-bus.ts); across nodes
 * (Redis) it resolves once Redis has taken the message.
 */
export interface Bus {
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, handler: BusHandler): void;
  close(): Promise<void>;
  /** Resolves once the subscriptions made so far are live (buses with nothing to wait for have none). */
  ready?(): Promise<void>;
  /** A round trip to the bus's server (readiness probes); absent when there is no server to reach. */
  ping?(): Promise<void>;
  /** Id of this process on the bus; messages carry it so a node ignores its own. */
  readonly nodeId: string;
}

type Handler = BusHandler;

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

/**
 * Pub/sub channels belong to the whole Redis server, not to a database: deployments that share one server through
 * database numbers (redis://host/2) would hear each other's invalidations. The number, when not 0, is in the name.
 */
export function channelPrefix(url: string): string {
  let db = 0;
  try {
    const u = new URL(url);
    db = Number(u.searchParams.get('db') ?? (u.pathname.slice(1) || 0));
  } catch {
    // Not a URL (a socket path): database 0.
  }
  return Number.isInteger(db) && db > 0 ? `switchyard:${db}:` : 'switchyard:';
}

/** Told when Redis goes away (once per outage) and when it is back. */
export interface BusLog {
  down(err: Error): void;
  back(): void;
}

const SILENT: BusLog = { down: () => {}, back: () => {} };

/**
 * The bus is best effort: a message that cannot be sent (Redis down) is dropped with a warning, and every node
 * re-reads what the bus would have told it every SYNC_FREQUENCY. So publishing never fails a caller (a console
 * change is applied here whatever Redis does) and nothing it does can end the process.
 */
export class RedisBus implements Bus {
  readonly nodeId: string;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Handler[]>();
  private down = false;
  private readonly channelPrefix: string;

  constructor(
    RedisClient: typeof Redis,
    url: string,
    private readonly log: BusLog = SILENT,
    commandTimeoutMs = 0,
    /** The workers of one node share it: they hear each other through the primary (cluster/node-bus.ts), not here. */
    nodeId = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
  ) {
    this.nodeId = nodeId;
    this.channelPrefix = channelPrefix(url);
    const bounds = { lazyConnect: false, maxRetriesPerRequest: 3, ...(commandTimeoutMs > 0 ? { commandTimeout: commandTimeoutMs } : {}) };
    this.pub = new RedisClient(url, bounds);
    // No ready check (an INFO) on the subscribing connection: a SUBSCRIBE sent as it connects put it in subscriber
    // mode first, the check then failed, and the connection started over without its subscriptions.
    // Subscriptions are renewed here on every (re)connection rather than by ioredis, which drops the promise of its
    // renewing SUBSCRIBE: a connection closed before Redis answered it left an unhandled rejection.
    this.sub = new RedisClient(url, { ...bounds, enableReadyCheck: false, autoResubscribe: false });
    this.sub.on('ready', () => this.renewSubscriptions());
    for (const client of [this.pub, this.sub]) {
      // Without a listener ioredis prints every failed reconnect to stderr.
      client.on('error', (err: Error) => this.wentDown(err));
      client.on('ready', () => this.cameBack());
    }
    this.sub.on('message', (channel: string, raw: string) => {
      const topic = channel.slice(this.channelPrefix.length);
      const sep = raw.indexOf('|');
      if (sep < 0 || raw.slice(0, sep) === this.nodeId) return;
      for (const h of this.handlers.get(topic) ?? []) void h(raw.slice(sep + 1));
    });
  }

  async publish(topic: string, message: string): Promise<void> {
    try {
      await this.pub.publish(this.channelPrefix + topic, `${this.nodeId}|${message}`);
    } catch (err) {
      this.wentDown(err as Error);
    }
  }

  private wentDown(err: Error): void {
    if (this.down) return;
    this.down = true;
    this.log.down(err);
  }

  private cameBack(): void {
    if (!this.down) return;
    this.down = false;
    this.log.back();
  }

  subscribe(topic: string, handler: Handler): void {
    const list = this.handlers.get(topic);
    if (list) list.push(handler);
    else {
      this.handlers.set(topic, [handler]);
      // One that fails now is renewed at the next connection.
      this.sub.subscribe(this.channelPrefix + topic).catch((err: unknown) => this.wentDown(err as Error));
    }
  }

  /** Subscribing again to a channel already subscribed is a no-op for Redis, so the first connection may repeat. */
  private renewSubscriptions(): void {
    if (this.handlers.size === 0) return;
    const channels = [...this.handlers.keys()].map((topic) => this.channelPrefix + topic);
    this.sub.subscribe(...channels).catch((err: unknown) => this.wentDown(err as Error));
  }

  /** Resolves once subscriptions are live (tests use it to avoid racing the first publish). */
  async ready(): Promise<void> {
    await this.sub.ping();
  }

  /** A PING on the publishing connection (readiness probes): rejects while Redis does not answer. */
  async ping(): Promise<void> {
    await this.pub.ping();
  }

  async close(): Promise<void> {
    this.sub.disconnect();
    this.pub.disconnect();
  }
}

/** Redis is only loaded when configured (the client costs memory a single node does not need). */
export async function createBus(redisUrl: string, log?: BusLog, commandTimeoutMs = 0, nodeId?: string): Promise<Bus> {
  if (!redisUrl) return new LocalBus();
  const { Redis } = await import('ioredis');
  return new RedisBus(Redis, redisUrl, log, commandTimeoutMs, nodeId);
}
