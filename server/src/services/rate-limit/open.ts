import type { Config } from '../../config.js';
import type { RateLimiter } from './limiter.js';
import { MemoryRateLimiter } from './memory.js';
import { openRedis } from '../../lib/redis.js';
import { IpcRateLimiter } from '../../cluster/ipc-rate-limiter.js';

/**
 * Limits in Redis when REDIS_CONN_STRING is set (shared by every node), else in memory: this process's, or the
 * primary's when this process is one of a node's workers (so the node admits what one process would).
 */
export async function openRateLimiter(config: Config, warn: (message: string, err?: unknown) => void): Promise<RateLimiter> {
  if (!config.redisConnString) return config.workerIndex > 0 ? new IpcRateLimiter() : new MemoryRateLimiter();
  const { RedisRateLimiter } = await import('./redis.js');
  // A limit check waits for Redis at most this long, then admits the request (redis.ts); its errors are reported there.
  const redis = await openRedis(config.redisConnString, { commandTimeoutMs: 500 }, () => {}, { maxRetriesPerRequest: 1 });
  const limiter = new RedisRateLimiter(redis, warn);
  // Limits are shared ones: wait (briefly) for the connection rather than admit the first calls unchecked.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, 2_000);
    redis.once('ready', done);
  });
  return limiter;
}
