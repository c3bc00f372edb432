import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_KEY_LENGTH } from '@switchyard/shared';
import type { Db } from '../db/connect.js';
import { startTestApp } from '../test/app.js';
import { testDatabases } from '../test/databases.js';
import { incumbentDatabase, type IncumbentDb } from '../test/incumbent-fixture.js';
import { MAX_AMOUNT } from './hostile-values.js';
import { runImport, type ImportResult } from './runner.js';

/*
 * Rows an incumbent's database may hold that no Switchyard console would ever write: a role above super admin, a
 * status nobody knows, int64's largest value read back as a float, negative balances, keys that are empty or can
 * be guessed. Each is refused or repaired on its way in, and the summary says so, on every target dialect.
 */

/** 9223372036854775807 as SQLite hands back a REAL column: 2^63, one past int64's largest value. */
const INT64_AS_FLOAT = 2 ** 63;

async function addHostileRows(incumbent: IncumbentDb): Promise<void> {
  const { default: Sqlite } = await import('better-sqlite3');
  const file = new Sqlite(incumbent.location);
  try {
    const user = file.prepare(
      `insert into users (id, username, password, display_name, role, status, email, quota, used_quota, request_count, "group", aff_code, aff_count, aff_quota, aff_history, inviter_id)
       values (?, ?, 'x', ?, ?, ?, '', ?, ?, 0, 'default', ?, 0, 0, 0, 0)`,
    );
    user.run(20, 'mallory', 'mallory', 999, 7, INT64_AS_FLOAT, 0, 'hst1');
    user.run(21, 'debtor', 'debtor', 1, 1, -500, -3, 'hst2');
    user.run(22, 'fraction', 'fraction', 10, 1, 12.75, 0, 'hst3');
    const token = file.prepare(
      `insert into tokens (id, user_id, key, status, name, created_time, accessed_time, expired_time, remain_quota, unlimited_quota, used_quota)
       values (?, 3, ?, ?, ?, 0, 0, -1, ?, 0, 0)`,
    );
    token.run(20, '', 1, 'empty-key', 1000);
    token.run(21, 'abcde', 1, 'short-key', 1000);
    token.run(22, 'with-dash-0123456789abcdefghijklmnopqrstuvwxyz', 1, 'dash-key', 1000);
    token.run(23, 'k'.repeat(48), 9, 'odd-status', -5);
    file.prepare(`insert into redemptions (id, user_id, key, status, name, quota, created_time, redeemed_time, used_user_id) values (20, 1, ?, 8, 'odd', ?, 0, 0, 0)`).run(
      'd'.repeat(32),
      INT64_AS_FLOAT,
    );
    file.prepare(`update channels set status = 6 where id = 1`).run();
    file.prepare(`update logs set quota = ?, prompt_tokens = -7 where id = 1`).run(INT64_AS_FLOAT);
    file.prepare(`update logs set quota = -300 where id = 2`).run();
  } finally {
    file.close();
  }
}

describe.each(testDatabases())('hostile rows imported into $name', (database) => {
  let incumbent: IncumbentDb;
  let target: { db: Db; drop(): Promise<void> };
  let result: ImportResult;
  beforeAll(async () => {
    incumbent = await incumbentDatabase('new-api', 'sqlite', { logs: 20 });
    await addHostileRows(incumbent);
    target = await database.open();
    const source = await incumbent.source();
    try {
      result = await runImport(source, incumbent.location, target.db);
    } finally {
      await source.close();
    }
  });
  afterAll(async () => {
    await target?.drop();
    await incumbent?.drop();
  });

  const user = (id: number) => target.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const token = (id: number) => target.db.kysely.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('gives an unknown role the least one and an unknown user status "disabled"', async () => {
    expect(await user(20)).toMatchObject({ role: 1, status: 2 });
    expect(await user(22)).toMatchObject({ role: 10 });
    expect(result.summary).toContain('role 999 is not one of 1, 10, 100: imported as 1');
    expect(result.summary).toContain('status 7 is not one of 1, 2: imported as 2');
  });

  it('brings balances within what a number counts exactly, and never below zero', async () => {
    expect(Number((await user(20)).quota)).toBe(MAX_AMOUNT);
    expect(await user(21)).toMatchObject({ quota: 0, used_quota: 0 });
    expect(Number((await user(22)).quota)).toBe(12);
    expect(Number((await token(23)).remain_quota)).toBe(0);
    const code = await target.db.kysely.selectFrom('redemptions').selectAll().where('id', '=', 20).executeTakeFirstOrThrow();
    expect({ quota: Number(code.quota), status: code.status }).toEqual({ quota: MAX_AMOUNT, status: 2 });
    const users = result.reports.find((r) => r.table === 'users')!;
    expect(users.notes.get(`quota above ${MAX_AMOUNT} (too large to count exactly) lowered to it`)).toBe(1);
    expect(users.notes.get('quota below 0 raised to 0')).toBe(1);
    expect(users.notes.get('used_quota below 0 raised to 0')).toBe(1);
    expect(users.notes.get('quota not a whole number: the fraction dropped')).toBe(1);
  });

  it('keeps a refund log negative but brings an overflowing one within range', async () => {
    const logs = await target.db.kysely.selectFrom('logs').select(['id', 'quota', 'prompt_tokens']).where('id', 'in', [1, 2]).orderBy('id').execute();
    expect(logs.map((l) => [l.id, Number(l.quota), Number(l.prompt_tokens)])).toEqual([
      [1, MAX_AMOUNT, 0],
      [2, -300, 10],
    ]);
  });

  it('gives empty, short and unsendable token keys new ones, and unknown statuses "disabled"', async () => {
    const keys = new Set<string>();
    for (const id of [20, 21, 22]) {
      const row = await token(id);
      expect(row.key, row.name).toMatch(new RegExp(`^[A-Za-z0-9]{${TOKEN_KEY_LENGTH}}$`));
      keys.add(row.key);
    }
    expect(keys.size).toBe(3);
    expect((await token(23)).status).toBe(2);
    const tokens = result.reports.find((r) => r.table === 'tokens')!;
    expect([...tokens.notes].find(([why]) => why.startsWith('key shorter than 32 characters'))?.[1]).toBe(3);
    // An ordinary 48-character key is carried byte for byte.
    expect((await token(2)).key).toBe(`t2${'x'.repeat(46)}`);
  });

  it('imports a channel of unknown status disabled', async () => {
    const channel = await target.db.kysely.selectFrom('channels').select('status').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(channel.status).toBe(2);
    expect(result.summary).toContain('status 6 is not one of 1, 2, 3: imported as 2');
  });
});

describe('a token row with an empty key', () => {
  it('is never matched by a key that names none ("sk--1")', async () => {
    const [sqlite] = testDatabases(['sqlite']);
    const t = await startTestApp(sqlite);
    try {
      const alice = await t.user('alice');
      await t.app.ctx.db.kysely
        .insertInto('tokens')
        .values({ user_id: alice.userId, key: '', status: 1, name: 'blank', created_time: 0, accessed_time: 0, expired_time: -1, remain_quota: 1000, unlimited_quota: 1, model_limits_enabled: 0, model_limits: '', allow_ips: '', used_quota: 0, group: '', deleted_at: null })
        .execute();
      for (const authorization of ['Bearer sk--1', 'Bearer -1', 'Bearer sk--']) {
        const res = await t.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization } });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.json(), authorization).toMatchObject({ error: { code: 'invalid_api_key' } });
      }
    } finally {
      await t.close();
    }
  });
});
