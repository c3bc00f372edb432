import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { testDatabases, type TestDatabase } from '../test/databases.js';
import { consumeLogRow } from './logs.js';
import { LogShipper } from './log-shipping.js';

const databases = testDatabases();
/** Each database as the main one, with the log database on each other kind (and SQLite on a second SQLite). */
const pairs = databases.flatMap((main) =>
  databases.filter((log) => log.name !== main.name || main.name === 'sqlite').map((log) => ({ main, log, name: `${main.name} -> ${log.name}` })),
);

const row = (n: number) =>
  consumeLogRow({
    userId: 1, username: 'u', tokenId: 2, tokenName: 't', modelName: `m${n}`, quota: n, promptTokens: n, completionTokens: 1,
    useTime: 1, isStream: false, channelId: 3, group: 'default', createdAt: 1_800_000_000 + n, other: `{"n":${n}}`,
  });

async function opened(database: TestDatabase): Promise<{ db: Db; drop(): Promise<void> }> {
  const { db, drop } = await database.open();
  await migrateToLatest(db);
  return { db, drop };
}

describe.each(pairs)('shipping logs $name', ({ main: mainDatabase, log: logDatabase }) => {
  let main: Db;
  let logs: Db;
  const drops: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const m = await opened(mainDatabase);
    const l = await opened(logDatabase);
    main = m.db;
    logs = l.db;
    drops.push(m.drop, l.drop);
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  const write = async (from: number, to: number) => {
    for (let n = from; n <= to; n += 100) {
      const batch = [];
      for (let i = n; i <= Math.min(to, n + 99); i++) batch.push(row(i));
      await main.kysely.insertInto('logs').values(batch).execute();
    }
  };
  const idsIn = async (db: Db) => (await db.kysely.selectFrom('logs').select('id').orderBy('id').execute()).map((r) => r.id);
  const quotaIn = async (db: Db) => Number((await db.kysely.selectFrom('logs').select((eb) => eb.fn.sum<number>('quota').as('q')).executeTakeFirst())?.q ?? 0);

  it('moves every row with its id and fields, keeping only the newest in the main database', async () => {
    await write(1, 2500);
    const before = await main.kysely.selectFrom('logs').selectAll().orderBy('id').execute();
    expect(await new LogShipper(main.kysely, logs.kysely).ship()).toBe(2499);
    expect(await logs.kysely.selectFrom('logs').selectAll().orderBy('id').execute()).toEqual(before);
    expect(await idsIn(main)).toEqual([before.at(-1)!.id]);
  });

  it('goes on from the kept row: new ids never collide with shipped ones', async () => {
    const shipper = new LogShipper(main.kysely, logs.kysely);
    await write(2501, 2510);
    expect(await shipper.ship()).toBe(10);
    const shipped = await idsIn(logs);
    expect(shipped).toHaveLength(2510);
    expect(new Set(shipped).size).toBe(2510);
    expect(await quotaIn(logs)).toBe((2510 * 2511) / 2);
    // Idle: nothing more to move.
    expect(await shipper.ship()).toBe(0);
    expect(await idsIn(logs)).toHaveLength(2510);
  });

  it('repeats a round that died between writing the log database and deleting from the main one without a duplicate', async () => {
    await write(2511, 2520);
    const waiting = await main.kysely.selectFrom('logs').selectAll().orderBy('id').execute();
    // What the dead round had written already (the first row waiting is the kept one, shipped before).
    await logs.kysely.insertInto('logs').values(waiting.slice(1, 7)).execute();
    expect(await new LogShipper(main.kysely, logs.kysely).ship()).toBe(10);
    const shipped = await idsIn(logs);
    expect(new Set(shipped).size).toBe(shipped.length);
    expect(shipped).toHaveLength(2520);
    expect(await quotaIn(logs)).toBe((2520 * 2521) / 2);
  });

  it('loses and doubles nothing while calls keep writing and two shippers run at once', async () => {
    const first = 2521;
    const last = first + 999;
    let done = false;
    const writer = (async () => {
      for (let n = first; n <= last; n += 10) {
        await write(n, n + 9);
        // A call's settlement comes from the event loop, as here (SQLite's statements would otherwise never yield).
        await new Promise((resolve) => setImmediate(resolve));
      }
      done = true;
    })();
    const a = new LogShipper(main.kysely, logs.kysely, 50, 3);
    const b = new LogShipper(main.kysely, logs.kysely, 70, 3);
    while (!done) {
      await Promise.all([a.ship(), b.ship()]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer;
    while ((await a.ship()) > 0);
    const shipped = await idsIn(logs);
    expect(shipped).toHaveLength(last);
    expect(new Set(shipped).size).toBe(last);
    expect(await quotaIn(logs)).toBe((last * (last + 1)) / 2);
    expect(await idsIn(main)).toHaveLength(1);
  });
});
