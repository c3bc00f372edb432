export class LocalBus {
    nodeId = 'local';
    handlers = new Map();
    async publish() {
        // Single node: the publisher has already applied the change itself.
    }
    subscribe(topic, handler) {
        this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
    }
    async close() { }
}
const CHANNEL_PREFIX = 'switchyard:';
const SILENT = { down: () => { }, back: () => { } };
/**
 * The bus is best effort: a message that cannot be sent (Redis down) is dropped with a warning, and every node
 * re-reads what the bus would have told it every SYNC_FREQUENCY. So publishing never fails a caller (a console
 * change is applied here whatever Redis does) and nothing it does can end the process.
 */
export class RedisBus {
    log;
    nodeId = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    pub;
    sub;
    handlers = new Map();
    down = false;
    constructor(RedisClient, url, log = SILENT) {
        this.log = log;
        this.pub = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
        this.sub = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
        for (const client of [this.pub, this.sub]) {
            // Without a listener ioredis prints every failed reconnect to stderr.
            client.on('error', (err) => this.wentDown(err));
            client.on('ready', () => this.cameBack());
        }
        this.sub.on('message', (channel, raw) => {
            const topic = channel.slice(CHANNEL_PREFIX.length);
            const sep = raw.indexOf('|');
            if (sep < 0 || raw.slice(0, sep) === this.nodeId)
                return;
            for (const h of this.handlers.get(topic) ?? [])
                h(raw.slice(sep + 1));
        });
    }
    async publish(topic, message) {
        try {
            await this.pub.publish(CHANNEL_PREFIX + topic, `${this.nodeId}|${message}`);
        }
        catch (err) {
            this.wentDown(err);
        }
    }
    wentDown(err) {
        if (this.down)
            return;
        this.down = true;
        this.log.down(err);
    }
    cameBack() {
        if (!this.down)
            return;
        this.down = false;
        this.log.back();
    }
    subscribe(topic, handler) {
        const list = this.handlers.get(topic);
        if (list)
            list.push(handler);
        else {
            this.handlers.set(topic, [handler]);
            // Subscriptions are renewed by ioredis on every reconnect; one that fails now is retried then.
            this.sub.subscribe(CHANNEL_PREFIX + topic).catch((err) => this.wentDown(err));
        }
    }
    /** Resolves once subscriptions are live (tests use it to avoid racing the first publish). */
    async ready() {
        await this.sub.ping();
    }
    async close() {
        this.sub.disconnect();
        this.pub.disconnect();
    }
}
/** Redis is only loaded when configured (the client costs memory a single node does not need). */
export async function createBus(redisUrl, log) {
    if (!redisUrl)
        return new LocalBus();
    const { Redis } = await import('ioredis');
    return new RedisBus(Redis, redisUrl, log);
}
//# sourceMappingURL=bus.js.map