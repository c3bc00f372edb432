import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import type { Db } from './connect.js';
import { migrateToLatest } from './migrate.js';

const TABLES = [
  'users', 'tokens', 'channels', 'abilities', 'redemptions', 'logs', 'options', 'midjourneys', 'tasks', 'quota_data', 'top_ups',
  'responses', 'settlement_batches', 'email_codes', 'email_sends',
];

describe.each(testDatabases())('migrations on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
  });
  afterAll(() => drop());

  it('creates every table of the data model and can run again without changes', async () => {
    await migrateToLatest(db);
    await migrateToLatest(db);
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    for (const t of TABLES) expect(tables).toContain(t);
  });

  /** The names of a table's secondary indexes, sorted. */
  async function indexNames(table: string): Promise<string[]> {
    const query =
      db.dialect === 'sqlite'
        ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`
        : db.dialect === 'postgres'
          ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table} and indexname <> ${`${table}_pkey`}`
          : sql<{ name: string }>`select distinct index_name as name from information_schema.statistics where table_schema = database() and table_name = ${table} and index_name <> 'PRIMARY'`;
    return (await query.execute(db.kysely)).rows.map((r) => r.name).sort();
  }

  it('indexes logs for the console filters and nothing else (every index costs each consume log)', async () => {
    await migrateToLatest(db);
    const names = await indexNames('logs');
    expect(names).toEqual([
      'logs_channel_time_idx',
      'logs_created_at_idx',
      'logs_model_time_idx',
      'logs_token_name_time_idx',
      'logs_type_time_idx',
      'logs_user_time_idx',
      'logs_username_time_idx',
    ]);
  });

  it('indexes the drawing and task logs for their filters: user, channel, upstream id, submit time', async () => {
    await migrateToLatest(db);
    expect(await indexNames('midjourneys')).toEqual([
      'midjourneys_channel_time_idx',
      'midjourneys_mj_id_idx',
      'midjourneys_status_idx',
      'midjourneys_submit_time_idx',
      'midjourneys_user_idx',
    ]);
    expect(await indexNames('tasks')).toEqual([
      'tasks_channel_time_idx',
      'tasks_status_idx',
      'tasks_submit_time_idx',
      'tasks_task_id_idx',
      'tasks_user_idx',
    ]);
  });

  it('stores bigint quota and reads it back as a number', async () => {
    await db.kysely
      .insertInto('users')
      .values({
        username: 'big', password: 'x', aff_code: 'big1', setting: '{}', quota: 9_000_000_000_000, display_name: '', role: 1,
        status: 1, email: '', github_id: '', wechat_id: '', telegram_id: '', oidc_id: '', access_token: null, used_quota: 0,
        request_count: 0, group: 'default', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, created_at: 0,
        deleted_at: null,
      })
      .execute();
    const row = await db.kysely.selectFrom('users').select(['quota']).where('username', '=', 'big').executeTakeFirstOrThrow();
    expect(row.quota).toBe(9_000_000_000_000);
  });

  it('keeps usernames and token keys unique', async () => {
    const insert = () =>
      db.kysely
        .insertInto('tokens')
        .values({
          user_id: 1, key: 'k'.repeat(48), status: 1, name: 'a', created_time: 0, accessed_time: 0, expired_time: -1,
          remain_quota: 0, unlimited_quota: 0, model_limits_enabled: 0, model_limits: '', allow_ips: '', used_quota: 0,
          group: '', deleted_at: null,
        })
        .execute();
    await insert();
    await expect(insert()).rejects.toThrow();
  });
});
