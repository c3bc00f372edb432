import type { Redis, RedisOptions } from 'ioredis';

/*
 * Every Redis client of the server is made here, with the same bounds: a command waits at most REDIS_COMMAND_TIMEOUT
 * for its answer (a Redis that accepts and never answers — overloaded, paused, a half-open connection — would
 * otherwise hold every caller waiting on it), and is given up after 3 reconnection attempts while Redis is away
 * (ioredis queues commands meanwhile). The first error of an outage goes to the caller's logger (without a listener
 * ioredis prints every failed reconnect as an "Unhandled error event"); the next is told after Redis was back.
 */

export interface RedisBounds {
  /** REDIS_COMMAND_TIMEOUT, in ms (0: none). */
  commandTimeoutMs: number;
}

export async function openRedis(url: string, bounds: RedisBounds, onError: (err: Error) => void, options: RedisOptions = {}): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    maxRetriesPerRequest: 3,
    ...(bounds.commandTimeoutMs > 0 ? { commandTimeout: bounds.commandTimeoutMs } : {}),
    ...options,
  });
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    onError(err);
  });
  client.on('ready', () => (down = false));
  return client;
}
