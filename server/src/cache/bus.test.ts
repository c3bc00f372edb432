import { describe, expect, it } from 'vitest';
import { channelPrefix, createBus, type RedisBus } from './bus.js';
import { closedPort } from '../test/unreachable.js';
import { RespStandIn } from '../test/resp-stand-in.js';

/*
 * The bus is best effort: with Redis unreachable a publish is dropped with one warning, never an error for the
 * console change that published it and never an unhandled rejection (which would end the process).
 */

describe('the Redis bus while Redis is unreachable', () => {
  it('drops a publish with one warning instead of failing the caller', async () => {
    const warnings: Error[] = [];
    const bus = (await createBus(`redis://127.0.0.1:${await closedPort()}`, { down: (err) => warnings.push(err), back: () => {} })) as RedisBus;
    try {
      bus.subscribe('token', () => {});
      await expect(bus.publish('token', 'k1')).resolves.toBeUndefined();
      await expect(bus.publish('token', 'k2')).resolves.toBeUndefined();
      expect(warnings).toHaveLength(1);
    } finally {
      await bus.close();
    }
  });
});

/*
 * ioredis renews subscriptions itself after a reconnect and drops the promise of that SUBSCRIBE: when the connection
 * closes (or the command times out) before Redis answers it, the rejection was unhandled — an ended process outside
 * tests. The bus renews its subscriptions itself, with the failure handled.
 */
describe('the Redis bus renewing its subscriptions after a reconnect', () => {
  it('leaves no unhandled rejection when closed before Redis answered the renewed SUBSCRIBE', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const redis = await RespStandIn.start();
    const bus = (await createBus(redis.url)) as RedisBus;
    try {
      bus.subscribe('token', () => {});
      const first = await redis.waitFor('subscribe');
      redis.quiet = true;
      redis.dropAll();
      await redis.waitFor('subscribe', (conn) => conn !== first);
      await bus.close();
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await bus.close();
      await redis.close();
    }
  });

  it('is subscribed again after a reconnect', async () => {
    const redis = await RespStandIn.start();
    const bus = (await createBus(redis.url)) as RedisBus;
    try {
      bus.subscribe('token', () => {});
      bus.subscribe('option', () => {});
      const first = await redis.waitFor('subscribe');
      redis.dropAll();
      const again = await redis.waitFor('subscribe', (conn) => conn !== first);
      const renewed = again.commands.filter((c) => c[0] === 'subscribe').flatMap((c) => c.slice(1));
      expect(new Set(renewed)).toEqual(new Set(['switchyard:token', 'switchyard:option']));
    } finally {
      await bus.close();
      await redis.close();
    }
  });
});

describe('bus channels', () => {
  it('are named for the database when it is not 0, since pub/sub spans every database of a server', () => {
    expect(channelPrefix('redis://127.0.0.1:6379')).toBe('switchyard:');
    expect(channelPrefix('redis://127.0.0.1:6379/0')).toBe('switchyard:');
    expect(channelPrefix('redis://:pw@127.0.0.1:6379/3')).toBe('switchyard:3:');
    expect(channelPrefix('redis://127.0.0.1:6379?db=4')).toBe('switchyard:4:');
    expect(channelPrefix('/run/redis.sock')).toBe('switchyard:');
  });
});
