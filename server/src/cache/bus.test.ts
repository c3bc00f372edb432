import { describe, expect, it } from 'vitest';
import { createBus, type RedisBus } from './bus.js';
import { closedPort } from '../test/unreachable.js';

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
