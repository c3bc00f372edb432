import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Dialect } from '../db/connect.js';
import { testDatabases, type TestDatabase } from '../test/databases.js';
import { BCRYPT_PASSWORD, incumbentDatabase, LIVE_KEY, type Incumbent, type IncumbentDb } from '../test/incumbent-fixture.js';
import { ImportRefused, runImport, type ImportResult } from './runner.js';
import { IMPORT_MARKER } from './target.js';

/*
 * Imports the fixture databases (new-api and one-api shapes) from every source dialect into every target dialect
 * the run has servers for, and compares what arrived with what was there.
 */

const targets = testDatabases();
const dialects = targets.map((t) => t.name);
/** Source dialect per (target, system): rotated so each dialect is a source and a target at least once. */
const sourceFor = (targetIndex: number, system: Incumbent): Dialect =>
  dialects[(targetIndex + (system === 'new-api' ? 0 : 1)) % dialects.length];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Counts and sums that must be equal on both sides, per table. */
const TOTALS: Record<string, string> = {
  users: 'count(*) as n, sum(quota) as quota, sum(used_quota) as used, sum(request_count) as requests',
  tokens: 'count(*) as n, sum(remain_quota) as remain, sum(used_quota) as used',
  channels: 'count(*) as n, sum(used_quota) as used',
  redemptions: 'count(*) as n, sum(quota) as quota',
  logs: 'count(*) as n, sum(quota) as quota, min(id) as first, max(id) as last, sum(prompt_tokens) as prompt',
  top_ups: 'count(*) as n, sum(amount) as amount',
  midjourneys: 'count(*) as n, sum(quota) as quota',
  tasks: 'count(*) as n, sum(quota) as quota',
  quota_data: 'sum(count) as n, sum(quota) as quota, sum(token_used) as tokens',
};

async function totals(db: AnyDb, table: string): Promise<Record<string, number>> {
  const { rows } = await sql<Record<string, unknown>>`select ${sql.raw(TOTALS[table])} from ${sql.table(table)}`.execute(db);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v ?? 0)]));
}

async function targetCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['users', 'tokens', 'channels', 'abilities', 'options', 'redemptions', 'logs', 'top_ups', 'midjourneys', 'tasks', 'quota_data']) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely);
    out[table] = Number(rows[0].n);
  }
  return out;
}

function importSuite(database: TestDatabase, index: number, system: Incumbent, check: (db: Db, result: ImportResult) => Promise<void>) {
  const sourceDialect = sourceFor(index, system);
  describe(`${system} from ${sourceDialect}`, () => {
    let incumbent: IncumbentDb;
    let target: { db: Db; drop(): Promise<void> };
    let result: ImportResult;
    beforeAll(async () => {
      incumbent = await incumbentDatabase(system, sourceDialect, { logs: 2500 });
      target = await database.open();
      const source = await incumbent.source();
      try {
        result = await runImport(source, incumbent.location, target.db, { pageSize: 1000 });
      } finally {
        await source.close();
      }
    });
    afterAll(async () => {
      await target?.drop();
      await incumbent?.drop();
    });

    it('carries every count and sum of money over unchanged', async () => {
      const source = await incumbent.source();
      try {
        const tables = system === 'new-api' ? Object.keys(TOTALS) : ['users', 'tokens', 'channels', 'redemptions', 'logs'];
        for (const table of tables) expect(await totals(target.db.kysely, table), table).toEqual(await totals(source.kysely, table));
      } finally {
        await source.close();
      }
    });

    it('leaves the target in shape for the next start: sequences past the imported ids, no import marker', async () => {
      const marker = await target.db.kysely.selectFrom('options').select('key').where('key', '=', IMPORT_MARKER).executeTakeFirst();
      expect(marker).toBeUndefined();
      const k = target.db.kysely;
      const { max } = await k.selectFrom('redemptions').select((e) => e.fn.max('id').as('max')).executeTakeFirstOrThrow();
      await k
        .insertInto('redemptions')
        .values({ user_id: 1, key: 'z'.repeat(32), status: 1, name: 'after', quota: 1, created_time: 0, redeemed_time: 0, used_user_id: 0, deleted_at: null })
        .execute();
      const added = await k.selectFrom('redemptions').select('id').where('name', '=', 'after').executeTakeFirstOrThrow();
      expect(added.id).toBe(Number(max) + 1);
      await target.db.kysely.deleteFrom('redemptions').where('name', '=', 'after').execute();
    });

    it('refuses a second import into the same target without touching it', async () => {
      const before = await targetCounts(target.db);
      const source = await incumbent.source();
      try {
        await expect(runImport(source, incumbent.location, target.db)).rejects.toThrow(ImportRefused);
      } finally {
        await source.close();
      }
      expect(await targetCounts(target.db)).toEqual(before);
    });

    it('keeps each kind of row as the incumbent meant it', async () => check(target.db, result));
  });
}

describe.each(targets.map((t, i) => [t, i] as const))('import into %s', (database, index) => {
  importSuite(database, index, 'new-api', async (db, result) => {
    const k = db.kysely;
    const users = await k.selectFrom('users').selectAll().orderBy('id').execute();
    expect(users.map((u) => u.password)).toEqual(Array(5).fill(BCRYPT_PASSWORD));
    const [root, alice, bob, carol, dave] = users;
    expect(root).toMatchObject({ role: 100, quota: 100_000_000, used_quota: 5000, request_count: 3, access_token: 'rootAccessToken+/=0123456789abc' });
    expect(alice).toMatchObject({ quota: 2_147_483_647, aff_count: 2, aff_quota: 300, aff_history_quota: 900, telegram_id: 'tg-1', wechat_id: 'wx-1', github_id: 'gh-1', setting: '{"notify_type":"email"}', deleted_at: null });
    expect(bob).toMatchObject({ inviter_id: 2, group: 'vip', email: 'bob@example.com' });
    expect(carol.deleted_at).toBe(Math.floor(Date.parse('2024-05-01T04:00:00Z') / 1000));
    expect(carol.access_token).toBeNull();
    expect(dave.status).toBe(2);
    expect(bob.aff_code).toMatch(/^[A-Za-z0-9]{4}$/);
    expect(new Set(users.map((u) => u.aff_code)).size).toBe(5);

    const tokens = await k.selectFrom('tokens').selectAll().orderBy('id').execute();
    expect(tokens[0]).toMatchObject({ key: LIVE_KEY, remain_quota: 400_000, model_limits_enabled: 1, model_limits: 'gpt-4o-mini,gpt-4o', allow_ips: '127.0.0.1\n::1\n10.0.0.0/8', expired_time: -1 });
    expect(tokens[1]).toMatchObject({ unlimited_quota: 1 });
    expect(tokens[2]).toMatchObject({ status: 3 });
    expect(tokens[3]).toMatchObject({ status: 4, remain_quota: 0 });
    expect(tokens[4].deleted_at).not.toBeNull();

    const channels = await k.selectFrom('channels').selectAll().orderBy('id').execute();
    expect(channels[0]).toMatchObject({ openai_organization: 'org-1', weight: 5, priority: 10, tag: 'main', balance: 12.5, status_code_mapping: '{"429":"500"}', auto_ban: 1 });
    expect(channels[1]).toMatchObject({ type: 999, status: 2 });
    expect(JSON.parse(channels[1].other_info).status_reason).toContain('999');
    expect(channels[2]).toMatchObject({ type: 3, other: '2024-06-01', status: 3 });
    const abilities = await k.selectFrom('abilities').selectAll().orderBy('channel_id').orderBy('group').orderBy('model').execute();
    expect(abilities.map((a) => [a.channel_id, a.group, a.model, a.enabled])).toEqual([
      [1, 'default', 'gpt-4o', 1], [1, 'default', 'gpt-4o-mini', 1], [1, 'vip', 'gpt-4o', 1], [1, 'vip', 'gpt-4o-mini', 1],
      [2, 'default', 'gpt-4o-mini', 0], [3, 'default', 'gpt-4o-mini', 0], [4, 'default', 'suno_music', 1],
    ]);

    const options = Object.fromEntries((await k.selectFrom('options').selectAll().execute()).map((o) => [o.key, o.value]));
    expect(options).toEqual({ QuotaPerUnit: '500000', ModelRatio: '{"gpt-4o-mini":0.5,"gpt-4o":1.25}', GroupRatio: '{"default":1,"vip":2}', RetryTimes: '2', SystemName: 'Old Gateway' });
    const opt = result.reports.find((r) => r.table === 'options')!;
    expect([...opt.skipped.keys()]).toEqual(['option CompletionRatio: 模型补全倍率不是合法的 JSON 字符串', 'unknown option LinuxDOOAuthEnabled']);

    const redemptions = await k.selectFrom('redemptions').selectAll().orderBy('id').execute();
    expect(redemptions.map((r) => [r.status, r.used_user_id, r.deleted_at === null])).toEqual([[1, 0, true], [3, 3, true], [1, 0, false]]);

    const log = await k.selectFrom('logs').selectAll().where('id', '=', 7).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ quota: 7, token_id: 1, group: 'vip', is_stream: 0, use_time: 2, other: '{"model_ratio":0.5,"group_ratio":2,"frt":120}' });
    expect((await k.selectFrom('logs').select('other').where('id', '=', 9).executeTakeFirstOrThrow()).other).toBe('');
    // The cache reads the source kept in `other` become the column the hit rate is summed from.
    const cacheReads = await k.selectFrom('logs').select(['id', 'cache_tokens']).where('id', 'in', [4, 7]).orderBy('id').execute();
    expect(cacheReads).toEqual([{ id: 4, cache_tokens: 4 }, { id: 7, cache_tokens: 0 }]);

    const topUps = await k.selectFrom('top_ups').selectAll().orderBy('id').execute();
    expect(topUps.map((t) => [t.trade_no, t.quota, t.status])).toEqual([['T-1', 5_000_000, 'success'], ['imported-2', 2_500_000, 'pending'], ['imported-3', 500_000, 'pending']]);
    const task = await k.selectFrom('tasks').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(task.properties)).toEqual({ input: 'a song' });
    expect(JSON.parse(task.data)).toEqual([{ id: 'clip-1' }]);
    expect(await k.selectFrom('quota_data').select(['id', 'count', 'quota']).orderBy('id').execute()).toEqual([{ id: 1, count: 3, quota: 30 }, { id: 3, count: 1, quota: 70 }]);

    expect(result.detected.system).toBe('new-api');
    expect(result.summary).toContain('users: 5 of 5 rows');
    expect(result.summary).toContain('quota_data: 2 of 3 rows');
    expect(result.summary).toContain('columns not carried: linux_do_id');
    expect(result.summary).toContain('setups: the first-run marker');
  });

  importSuite(database, index, 'one-api', async (db, result) => {
    const k = db.kysely;
    expect(result.detected.system).toBe('one-api');
    const users = await k.selectFrom('users').selectAll().orderBy('id').execute();
    expect(users[0]).toMatchObject({ quota: 500_000_000_000_000, access_token: 'f'.repeat(32) });
    expect(users[1]).toMatchObject({ access_token: null, quota: 3_000_000_000, setting: '' });
    expect(users[2]).toMatchObject({ status: 2 });
    expect(users[2].deleted_at).not.toBeNull();
    const tokens = await k.selectFrom('tokens').selectAll().orderBy('id').execute();
    expect(tokens[0]).toMatchObject({ key: LIVE_KEY, model_limits_enabled: 1, model_limits: 'gpt-4o-mini,gpt-4o', allow_ips: '127.0.0.1/32\n10.0.0.0/8', group: '' });
    expect(tokens[1]).toMatchObject({ model_limits_enabled: 0, model_limits: '', allow_ips: '', unlimited_quota: 1 });
    const channels = await k.selectFrom('channels').selectAll().orderBy('id').execute();
    expect(channels.map((c) => [c.type, c.status])).toEqual([[1, 1], [43, 1], [0, 2], [33, 1], [0, 2]]);
    expect(JSON.parse(channels[0].setting)).toEqual({ system_prompt: 'Be brief.' });
    expect(channels[3]).toMatchObject({ key: 'AKIA1|SECRET1|us-east-1' });
    const logs = await k.selectFrom('logs').selectAll().where('id', 'in', [1, 2, 7]).orderBy('id').execute();
    expect(logs.map((l) => [l.use_time, l.other, l.type])).toEqual([[2, '{"request_id":"req-1"}', 2], [2, '', 2], [2, '{"request_id":"req-7"}', 5]]);
    const ch = result.reports.find((r) => r.table === 'channels')!;
    expect([...ch.notes.keys()]).toEqual(expect.arrayContaining(['config fields not carried: user_id', 'imported disabled: one-api channel type 4 is not served']));
    const opt = result.reports.find((r) => r.table === 'options')!;
    expect(opt.written).toBe(2);
    expect([...opt.skipped.keys()]).toEqual(['unknown option ApproximateTokenEnabled', 'option QuotaForNewUser: 新用户初始额度的值必须是十进制数字']);
  });
});
