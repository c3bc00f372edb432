import type { FastifyBaseLogger } from 'fastify';
import { createBus, type Bus } from '../cache/bus.js';
import type { Config } from '../config.js';
import { IpcBus } from './ipc-bus.js';
import { NodeBus } from './node-bus.js';

/**
 * The cache bus of this process: Redis between nodes when configured, and between the workers of this node the
 * primary (which answers once every other worker applied a change); one of them alone when the other is not there.
 */
export async function openBus(config: Config, log: FastifyBaseLogger): Promise<Bus> {
  const underPrimary = config.workerIndex > 0;
  if (underPrimary && !config.redisConnString) return new IpcBus();
  const redis = await createBus(
    config.redisConnString,
    {
      down: (err) => log.warn({ err }, 'Redis is unreachable: caches stay local until it is back (other nodes re-read every SYNC_FREQUENCY)'),
      back: () => log.warn('Redis is reachable again'),
    },
    config.redisCommandTimeoutSeconds * 1000,
    underPrimary && config.nodeId ? config.nodeId : undefined,
  );
  return underPrimary ? new NodeBus(new IpcBus(), redis) : redis;
}
