import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../db/migrate.js';
import { testDatabases } from '../../../test/databases.js';
import { needs } from '../../../test/services.js';
import { newIdBase, responseId } from './ids.js';
import { STATE, type ResponsesBackend, type StoreRow } from './store.js';
import { RedisResponsesStore } from './store-redis.js';
import { SqlResponsesStore } from './store-sql.js';
import { sharedRedisUrl } from '../../../test/shared-redis.js';

/*
 * Every place responses can be kept — the SQL database (SQLite, and PostgreSQL / MySQL when SWITCHYARD_TEST_PG /
 * SWITCHYARD_TEST_MYSQL are set) and Redis (SWITCHYARD_TEST_REDIS) — held to the same contract.
 */

interface Backend {
  name: string;
  open(): Promise<{ store: ResponsesBackend; age(id: string, seconds: number): Promise<void>; close(): Promise<void> }>;
}

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

const sqlBackends: Backend[] = testDatabases().map((database) => ({
  name: database.name,
  async open() {
    const { db, drop } = await database.open();
    await migrateToLatest(db);
    return {
      store: new SqlResponsesStore(db.kysely, db.dialect),
      age: async (id, seconds) => {
        const row = await db.kysely.selectFrom('responses').select('created_at').where('id', '=', id).executeTakeFirstOrThrow();
        await db.kysely.updateTable('responses').set({ created_at: Number(row.created_at) - seconds }).where('id', '=', id).execute();
      },
      close: drop,
    };
  },
}));

const redisBackends: Backend[] = needs(['redis'], 'responses kept in Redis')
  ? [
      {
        name: 'redis',
        async open() {
          const prefix = `switchyard-test-${randomBytes(4).toString('hex')}:responses:`;
          const redis = new Redis(sharedRedisUrl()!);
          const admin = new Redis(sharedRedisUrl()!);
          return {
            store: new RedisResponsesStore(redis, () => 30 * DAY, prefix),
            age: async (id, seconds) => {
              const created = Number(await admin.hget(prefix + id, 'created'));
              await admin.hset(prefix + id, 'created', created - seconds);
            },
            async close() {
              const keys = await admin.keys(`${prefix}*`);
              if (keys.length > 0) await admin.del(...keys);
              admin.disconnect();
            },
          };
        },
      },
    ]
  : [];

function row(userId: number, fields: Partial<StoreRow> = {}): StoreRow {
  const id = responseId(newIdBase());
  const response = JSON.stringify({ id, object: 'response', output: [{ id: 'msg_x', type: 'message' }] });
  const input = JSON.stringify([{ id: 'msg_in', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]);
  return { id, userId, createdAt: now(), state: STATE.stored, bytes: response.length + input.length, response, input, ...fields };
}

describe.each([...sqlBackends, ...redisBackends])('the $name response store', (backend) => {
  let store: ResponsesBackend;
  let age: (id: string, seconds: number) => Promise<void>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, age, close } = await backend.open());
  });
  afterAll(async () => {
    await store.close();
    await close();
  });

  it('keeps a response and gives it back to its user only, with its input only when asked', async () => {
    const r = row(1);
    expect(await store.write([r])).toEqual({ failed: [], errors: [] });
    const found = (await store.read(1, [r.id], false)).get(r.id);
    expect(found).toMatchObject({ state: STATE.stored, createdAt: r.createdAt, response: JSON.parse(r.response) });
    expect(found).not.toHaveProperty('input.0');
    expect((await store.read(1, [r.id], true)).get(r.id)).toMatchObject({ input: JSON.parse(r.input) });
    expect((await store.read(2, [r.id], true)).size).toBe(0);
    expect((await store.read(1, ['resp_unknown'], true)).size).toBe(0);
  });

  it('reads several responses at once', async () => {
    const rows = [row(3), row(3), row(4)];
    await store.write(rows);
    const found = await store.read(3, rows.map((r) => r.id), false);
    expect([...found.keys()].sort()).toEqual([rows[0].id, rows[1].id].sort());
  });

  it('remembers a response too large to keep as a marker without its content', async () => {
    const r = row(5, { state: STATE.tooLarge, bytes: 0, response: '', input: '' });
    await store.write([r]);
    expect((await store.read(5, [r.id], true)).get(r.id)).toEqual({ state: STATE.tooLarge, createdAt: r.createdAt });
  });

  it('evicts a user’s oldest responses beyond the per-user limit, leaving markers, and no other user’s', async () => {
    const other = row(7, { bytes: 600 });
    await store.write([other]);
    const old = row(6, { bytes: 600, createdAt: now() - 30 });
    const mid = row(6, { bytes: 600, createdAt: now() - 20 });
    const recent = row(6, { bytes: 600, createdAt: now() - 10 });
    await store.write([old, mid]);
    await store.evict(6, { cutoff: 0, userBytes: 1500 });
    expect((await store.read(6, [old.id, mid.id], false)).get(old.id)?.state).toBe(STATE.stored);
    await store.write([recent]);
    await store.evict(6, { cutoff: 0, userBytes: 1500 });
    await store.evict(7, { cutoff: 0, userBytes: 1500 });
    const found = await store.read(6, [old.id, mid.id, recent.id], false);
    expect(found.get(old.id)).toEqual({ state: STATE.evicted, createdAt: old.createdAt });
    expect(found.get(mid.id)?.state).toBe(STATE.stored);
    expect(found.get(recent.id)?.state).toBe(STATE.stored);
    expect((await store.read(7, [other.id], false)).get(other.id)?.state).toBe(STATE.stored);
  });

  it('deletes a response for its user only', async () => {
    const r = row(8);
    await store.write([r]);
    expect(await store.delete(9, r.id)).toBe(false);
    expect((await store.read(8, [r.id], false)).size).toBe(1);
    expect(await store.delete(8, r.id)).toBe(true);
    expect((await store.read(8, [r.id], false)).size).toBe(0);
    expect(await store.delete(8, r.id)).toBe(false);
  });

  it.runIf(backend.name !== 'redis')('deletes expired responses (the retention job) and keeps the rest', async () => {
    const expired = row(10);
    const fresh = row(10);
    await store.write([expired, fresh]);
    await age(expired.id, 31 * DAY);
    expect(await store.expire(now() - 30 * DAY)).toBe(1);
    const found = await store.read(10, [expired.id, fresh.id], false);
    expect([...found.keys()]).toEqual([fresh.id]);
  });

  it.runIf(backend.name === 'redis')('lets Redis expire each response after the retention time', async () => {
    const r = row(11);
    await store.write([r]);
    const admin = new Redis(sharedRedisUrl()!);
    try {
      const keys = await admin.keys(`*${r.id}`);
      expect(keys).toHaveLength(1);
      const ttl = await admin.ttl(keys[0]);
      expect(ttl).toBeGreaterThan(30 * DAY - 60);
      expect(ttl).toBeLessThanOrEqual(30 * DAY);
    } finally {
      admin.disconnect();
    }
    await age(r.id, 31 * DAY);
    // Read as created 31 days ago: the keeper leaves it out (store.test.ts); the store itself reports the time.
    expect((await store.read(11, [r.id], false)).get(r.id)?.createdAt).toBe(r.createdAt - 31 * DAY);
  });

  it('keeps a response of several megabytes', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const r = row(12, { input: JSON.stringify([{ id: 'msg_big', type: 'message', role: 'user', content: big }]) });
    expect(await store.write([r])).toEqual({ failed: [], errors: [] });
    const found = (await store.read(12, [r.id], true)).get(r.id);
    expect(found?.state === STATE.stored && (found.input?.[0].content as string).length).toBe(big.length);
  });
});
