import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { openRedis } from './redis.js';

describe('Redis clients are bounded', () => {
  it('fails a command after REDIS_COMMAND_TIMEOUT when Redis accepts and never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const errors: Error[] = [];
    const redis = await openRedis(`redis://127.0.0.1:${port}`, { commandTimeoutMs: 300 }, (err) => errors.push(err));
    try {
      const started = Date.now();
      await expect(redis.get('anything')).rejects.toThrow(/timed out/i);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(2000);
    } finally {
      redis.disconnect();
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('tells the first error of an outage once, not every reconnect', async () => {
    const errors: Error[] = [];
    // Nothing listens on port 1: every connection attempt is refused.
    const redis = await openRedis('redis://127.0.0.1:1', { commandTimeoutMs: 300 }, (err) => errors.push(err), { retryStrategy: () => 20 });
    // Five refused reconnects, each with its error event.
    let reconnects = 0;
    await new Promise<void>((resolve) => redis.on('reconnecting', () => ++reconnects === 5 && resolve()));
    redis.disconnect();
    expect(errors).toHaveLength(1);
  });
});
