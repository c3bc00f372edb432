import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { FaultUpstreams } from '../test/fault-upstreams.js';
import { expectErrorBody, expectWholeAnswer } from '../test/client-calls.js';
import { booksOf, channelsUsed, expectBalanced, openAccount, quiesce, type Account, type Books } from '../test/ledger.js';
import { ALL_PATHS, COMPLETION_RATIO, MAX_TOKENS, TIGHT, RICH, healthyChannels, priceModels, runLoad } from '../test/fault-matrix.js';
import { loadEncodings } from './tokenizer.js';

/*
 * The fault matrix, database part: the database goes away for a moment while calls keep coming. Clients are served
 * (settlements are written after the answer), a settlement batch that cannot be written is kept and written again
 * when the database is back, and then every account's books balance to the unit, with one consume log per call.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes the consume log table away (as a migration holding it, or a table being restored, would) for at least `ms`
 * and until `seen()` says a settlement batch met the outage: on a slow machine no call may end within `ms`.
 */
async function logsAway(db: Db, ms: number, seen: () => boolean): Promise<void> {
  const rename = (from: string, to: string) =>
    db.dialect === 'mysql' ? sql`rename table ${sql.id(from)} to ${sql.id(to)}` : sql`alter table ${sql.id(from)} rename to ${sql.id(to)}`;
  await rename('logs', 'logs_away').execute(db.kysely);
  const started = Date.now();
  while (Date.now() - started < ms || (!seen() && Date.now() - started < OUTAGE_CAP_MS)) await sleep(20);
  await rename('logs_away', 'logs').execute(db.kysely);
}

/** The longest the log table stays away waiting for a batch to meet it (then the test fails on the count). */
const OUTAGE_CAP_MS = 15_000;

/** Ends every other connection to the database, as a database restart or a failover does. */
async function dropConnections(db: Db): Promise<number> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{ pid: number }>`select pg_terminate_backend(pid) as pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(db.kysely);
    return rows.length;
  }
  const { rows } = await sql<{ id: number }>`select id from information_schema.processlist where db = database() and id <> connection_id()`.execute(db.kysely);
  for (const { id } of rows) await sql.raw(`kill ${Number(id)}`).execute(db.kysely).catch(() => {});
  return rows.length;
}

/** The largest reservation a load call makes: a Claude client's default cap of 1024 at the completion ratio. */
const LARGEST_ESTIMATE = (1024 + 50) * COMPLETION_RATIO;

/**
 * The books of an account some of whose calls failed because the database ended their connection. Everything
 * balances exactly but for one documented doubt: a reservation whose connection dies while its COMMIT is under way
 * may have been taken without the relay ever learning it (the acknowledgement is lost with the connection), so that
 * call is answered 5xx and its reservation stays taken, as a crash leaves reservations of calls in flight. At most one
 * estimate per failed call; the logs, used quotas and request counts still agree exactly.
 */
function expectBalancedButInDoubt(a: Account, b: Books, failed: number): void {
  const inDoubt = a.initialQuota - b.quota - b.logSum;
  expect(inDoubt).toBeGreaterThanOrEqual(0);
  expect(inDoubt).toBeLessThanOrEqual(failed * LARGEST_ESTIMATE);
  if (a.limited) expect(a.initialTokenQuota - b.tokenRemain - b.logSum, 'the user and the token reserve together').toBe(inDoubt);
  expect(b.usedQuota).toBe(b.logSum);
  expect(b.tokenUsed).toBe(b.logSum);
  expect(b.requestCount).toBe(b.logCount);
}

describe.each(testDatabases())('the fault matrix when the database is briefly unavailable, on $name', (database) => {
  let f: RelayFixture;
  const upstreams = new FaultUpstreams();
  let models: Record<'openai' | 'claude' | 'gemini', string>;
  let channelIds: number[];

  beforeAll(async () => {
    loadEncodings();
    f = await startRelay(database, { RELAY_TIMEOUT: '5', STREAMING_TIMEOUT: '5' });
    await upstreams.start(['openai', 'claude', 'gemini'], ['none']);
    ({ models, channelIds } = await healthyChannels(f, upstreams, 'db'));
    await priceModels(f, Object.values(models));
  });
  afterAll(async () => {
    await f?.close();
    await upstreams.close();
  });

  /** Four accounts covering the reservation paths, loaded through every path while `outage` runs. */
  async function underLoad(outage: () => Promise<unknown>, failuresAllowed = false) {
    const db = f.t.app.ctx.db.kysely;
    const accounts: Account[] = [
      await openAccount(db, { quota: TIGHT * 10, tokenQuota: TIGHT * 10 }),
      await openAccount(db, { quota: TIGHT * 10, tokenQuota: TIGHT * 10 }),
      await openAccount(db, { quota: RICH }),
      await openAccount(db, { quota: TIGHT * 10 }),
    ];
    const capped = new Set([accounts[0], accounts[2]]);
    const channelsBefore = await channelsUsed(db, channelIds);
    const stats = { ...f.t.app.ctx.relay.settler.stats };
    const load = runLoad(f.baseUrl, accounts, { paths: ALL_PATHS, models, durationMs: 1500, workers: 2, maxTokens: (a) => (capped.has(a) ? MAX_TOKENS : undefined) });
    await sleep(300);
    await outage();
    // The server ends its connections a moment after it was asked to; calls sent after that moment are all served.
    const outageOver = Date.now() + 500;
    const results = await load;
    await quiesce(f.t.app.ctx, 30_000);
    let total = 0;
    for (const a of accounts) {
      const calls = results.get(a)!;
      let answered = 0;
      let failed = 0;
      for (const { path, startedAt, outcome } of calls) {
        // A call whose own database work met the outage may fail, in its format and uncharged; every call sent
        // after it is served.
        if (outcome.status !== 200 && failuresAllowed && startedAt < outageOver) {
          expect(outcome.status, outcome.text.slice(0, 300)).toBeGreaterThanOrEqual(500);
          expectErrorBody(path.client, outcome.status, outcome.text);
          failed++;
          continue;
        }
        expect(outcome.status, outcome.text.slice(0, 300)).toBe(200);
        expectWholeAnswer(path.client, path.stream, outcome.text);
        answered++;
      }
      const books = await booksOf(db, a);
      if (failed === 0) expectBalanced(a, books);
      else expectBalancedButInDoubt(a, books, failed);
      expect(books.logCount).toBe(answered);
      total += books.logSum;
    }
    expect((await channelsUsed(db, channelIds)) - channelsBefore).toBe(total);
    return { stats, after: f.t.app.ctx.relay.settler.stats };
  }

  it('keeps a settlement batch the database cannot take and writes it, logs and all, once the table is back', async () => {
    const { settler } = f.t.app.ctx.relay;
    const failedBefore = settler.stats.failedBatches;
    const { stats, after } = await underLoad(() => logsAway(f.t.app.ctx.db, 600, () => settler.stats.failedBatches > failedBefore));
    expect(after.failedBatches).toBeGreaterThan(stats.failedBatches);
    expect(after.setAsideRows).toBe(stats.setAsideRows);
  });

  it.runIf(database.name !== 'sqlite')('survives the database ending every connection mid-load', async () => {
    await underLoad(() => dropConnections(f.t.app.ctx.db), true);
  });
});
