import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect, sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/connect.js';
import { openSource, type SourceDb } from '../import/source.js';
import { testDatabases } from './databases.js';

/*
 * Databases in the shapes new-api and one-api give them (GORM AutoMigrate, reference incumbent-schema.md), on
 * SQLite, PostgreSQL or MySQL, filled with every kind of row an import meets, edge cases included.
 */

export type Incumbent = 'new-api' | 'one-api';
type Kind = 'pk' | 'int' | 'bigint' | 'text' | 'str' | 'bool' | 'float' | 'datetime' | 'json';
type Columns = Array<[string, Kind]>;

const NEW_API: Record<string, Columns> = {
  users: [
    ['id', 'pk'], ['username', 'str'], ['password', 'text'], ['display_name', 'str'], ['role', 'int'], ['status', 'int'], ['email', 'str'],
    ['github_id', 'str'], ['oidc_id', 'str'], ['wechat_id', 'str'], ['telegram_id', 'str'], ['linux_do_id', 'str'], ['access_token', 'str'],
    ['quota', 'int'], ['used_quota', 'int'], ['request_count', 'int'], ['group', 'str'], ['aff_code', 'str'], ['aff_count', 'int'],
    ['aff_quota', 'int'], ['aff_history', 'int'], ['inviter_id', 'int'], ['deleted_at', 'datetime'], ['setting', 'text'],
  ],
  tokens: [
    ['id', 'pk'], ['user_id', 'int'], ['key', 'str'], ['status', 'int'], ['name', 'str'], ['created_time', 'bigint'], ['accessed_time', 'bigint'],
    ['expired_time', 'bigint'], ['remain_quota', 'bigint'], ['unlimited_quota', 'bool'], ['model_limits_enabled', 'bool'],
    ['model_limits', 'str'], ['allow_ips', 'text'], ['used_quota', 'bigint'], ['group', 'str'], ['deleted_at', 'datetime'],
  ],
  channels: [
    ['id', 'pk'], ['type', 'bigint'], ['key', 'text'], ['open_ai_organization', 'text'], ['test_model', 'text'], ['status', 'bigint'],
    ['name', 'str'], ['weight', 'bigint'], ['created_time', 'bigint'], ['test_time', 'bigint'], ['response_time', 'bigint'],
    ['base_url', 'text'], ['other', 'text'], ['balance', 'float'], ['balance_updated_time', 'bigint'], ['models', 'text'], ['group', 'str'],
    ['used_quota', 'bigint'], ['model_mapping', 'text'], ['status_code_mapping', 'str'], ['priority', 'bigint'], ['auto_ban', 'bigint'],
    ['other_info', 'text'], ['tag', 'str'], ['setting', 'text'], ['param_override', 'text'],
  ],
  abilities: [['group', 'str'], ['model', 'str'], ['channel_id', 'bigint'], ['enabled', 'bool'], ['priority', 'bigint'], ['weight', 'bigint'], ['tag', 'str']],
  options: [['key', 'str'], ['value', 'text']],
  redemptions: [
    ['id', 'pk'], ['user_id', 'bigint'], ['key', 'str'], ['status', 'bigint'], ['name', 'str'], ['quota', 'bigint'], ['created_time', 'bigint'],
    ['redeemed_time', 'bigint'], ['used_user_id', 'bigint'], ['deleted_at', 'datetime'],
  ],
  logs: [
    ['id', 'pk'], ['user_id', 'bigint'], ['created_at', 'bigint'], ['type', 'bigint'], ['content', 'text'], ['username', 'str'],
    ['token_name', 'str'], ['model_name', 'str'], ['quota', 'bigint'], ['prompt_tokens', 'bigint'], ['completion_tokens', 'bigint'],
    ['use_time', 'bigint'], ['is_stream', 'bool'], ['channel_id', 'bigint'], ['channel_name', 'text'], ['token_id', 'bigint'],
    ['group', 'str'], ['other', 'text'],
  ],
  top_ups: [['id', 'pk'], ['user_id', 'bigint'], ['amount', 'bigint'], ['money', 'float'], ['trade_no', 'str'], ['create_time', 'bigint'], ['status', 'str']],
  midjourneys: [
    ['id', 'pk'], ['code', 'bigint'], ['user_id', 'bigint'], ['action', 'str'], ['mj_id', 'str'], ['prompt', 'text'], ['prompt_en', 'text'],
    ['description', 'text'], ['state', 'text'], ['submit_time', 'bigint'], ['start_time', 'bigint'], ['finish_time', 'bigint'],
    ['image_url', 'text'], ['status', 'str'], ['progress', 'str'], ['fail_reason', 'text'], ['channel_id', 'bigint'], ['quota', 'bigint'],
    ['buttons', 'text'], ['properties', 'text'],
  ],
  tasks: [
    ['id', 'pk'], ['created_at', 'bigint'], ['updated_at', 'bigint'], ['task_id', 'str'], ['platform', 'str'], ['user_id', 'bigint'],
    ['channel_id', 'bigint'], ['quota', 'bigint'], ['action', 'str'], ['status', 'str'], ['fail_reason', 'text'], ['submit_time', 'bigint'],
    ['start_time', 'bigint'], ['finish_time', 'bigint'], ['progress', 'str'], ['properties', 'json'], ['data', 'json'],
  ],
  quota_data: [
    ['id', 'pk'], ['user_id', 'bigint'], ['username', 'str'], ['model_name', 'str'], ['created_at', 'bigint'], ['token_used', 'bigint'],
    ['count', 'bigint'], ['quota', 'bigint'],
  ],
  setups: [['id', 'pk'], ['version', 'str'], ['initialized_at', 'bigint']],
};

const ONE_API: Record<string, Columns> = {
  users: [
    ['id', 'pk'], ['username', 'str'], ['password', 'text'], ['display_name', 'str'], ['role', 'int'], ['status', 'int'], ['email', 'str'],
    ['github_id', 'str'], ['wechat_id', 'str'], ['lark_id', 'str'], ['oidc_id', 'str'], ['access_token', 'str'], ['quota', 'bigint'],
    ['used_quota', 'bigint'], ['request_count', 'int'], ['group', 'str'], ['aff_code', 'str'], ['inviter_id', 'int'],
  ],
  tokens: [
    ['id', 'pk'], ['user_id', 'bigint'], ['key', 'str'], ['status', 'bigint'], ['name', 'str'], ['created_time', 'bigint'],
    ['accessed_time', 'bigint'], ['expired_time', 'bigint'], ['remain_quota', 'bigint'], ['unlimited_quota', 'bool'],
    ['used_quota', 'bigint'], ['models', 'text'], ['subnet', 'str'],
  ],
  channels: [
    ['id', 'pk'], ['type', 'bigint'], ['key', 'text'], ['status', 'bigint'], ['name', 'str'], ['weight', 'bigint'], ['created_time', 'bigint'],
    ['test_time', 'bigint'], ['response_time', 'bigint'], ['base_url', 'text'], ['other', 'text'], ['balance', 'float'],
    ['balance_updated_time', 'bigint'], ['models', 'text'], ['group', 'str'], ['used_quota', 'bigint'], ['model_mapping', 'str'],
    ['priority', 'bigint'], ['config', 'text'], ['system_prompt', 'text'],
  ],
  abilities: [['group', 'str'], ['model', 'str'], ['channel_id', 'bigint'], ['enabled', 'bool'], ['priority', 'bigint']],
  options: [['key', 'str'], ['value', 'text']],
  redemptions: [
    ['id', 'pk'], ['user_id', 'bigint'], ['key', 'str'], ['status', 'bigint'], ['name', 'str'], ['quota', 'bigint'], ['created_time', 'bigint'],
    ['redeemed_time', 'bigint'],
  ],
  logs: [
    ['id', 'pk'], ['user_id', 'bigint'], ['created_at', 'bigint'], ['type', 'bigint'], ['content', 'text'], ['username', 'str'],
    ['token_name', 'str'], ['model_name', 'str'], ['quota', 'bigint'], ['prompt_tokens', 'bigint'], ['completion_tokens', 'bigint'],
    ['channel_id', 'bigint'], ['request_id', 'str'], ['elapsed_time', 'bigint'], ['is_stream', 'bool'], ['system_prompt_reset', 'bool'],
  ],
};

function columnType(kind: Kind, dialect: Dialect): RawBuilder<unknown> {
  const pg = dialect === 'postgres';
  const types: Record<Kind, string> = {
    pk: dialect === 'sqlite' ? 'integer primary key autoincrement' : pg ? 'bigserial primary key' : 'bigint auto_increment primary key',
    int: dialect === 'sqlite' ? 'integer' : 'int',
    bigint: dialect === 'sqlite' ? 'integer' : 'bigint',
    text: dialect === 'mysql' ? 'longtext' : 'text',
    str: dialect === 'mysql' ? 'varchar(191)' : 'text',
    bool: pg ? 'boolean' : 'numeric',
    float: pg ? 'double precision' : dialect === 'mysql' ? 'double' : 'real',
    datetime: pg ? 'timestamptz' : dialect === 'mysql' ? 'datetime(3)' : 'datetime',
    json: dialect === 'sqlite' ? 'JSON' : 'json',
  };
  return sql.raw(dialect === 'mysql' && kind === 'bool' ? 'tinyint(1)' : types[kind]);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function createTables(db: AnyDb, dialect: Dialect, tables: Record<string, Columns>): Promise<void> {
  for (const [table, columns] of Object.entries(tables)) {
    const defs = sql.join(columns.map(([name, kind]) => sql`${sql.id(name)} ${columnType(kind, dialect)}`));
    await sql`create table ${sql.table(table)} (${defs})`.execute(db);
  }
}

/** A time GORM would write into deleted_at, as each driver takes it. */
const deletedAt = (dialect: Dialect) => (dialect === 'sqlite' ? '2024-05-01 12:00:00.123456789+08:00' : new Date('2024-05-01T04:00:00.123Z'));
const bool = (dialect: Dialect, v: boolean) => (dialect === 'postgres' ? v : v ? 1 : 0);

/** bcrypt of "password" at cost 10, in the $2a$ form Go's bcrypt writes. */
export const BCRYPT_PASSWORD = '$2a$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';
/** The key of the fixture's live token (as stored: no sk-). */
export const LIVE_KEY = 'Live0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH';
export const NOW = Math.floor(Date.now() / 1000);

export interface FixtureOptions {
  logs?: number;
  /** The base URL and key of the OpenAI channel (a mock upstream). */
  upstream?: { url: string; key: string };
}

const key48 = (tag: string) => (tag + 'x'.repeat(48)).slice(0, 48);

async function fillNewApi(db: AnyDb, d: Dialect, opts: FixtureOptions): Promise<void> {
  const user = (id: number, username: string, extra: Record<string, unknown>) => ({
    id, username, password: BCRYPT_PASSWORD, display_name: username, role: 1, status: 1, email: `${username}@example.com`, github_id: '',
    oidc_id: '', wechat_id: '', telegram_id: '', linux_do_id: '', access_token: null, quota: 0, used_quota: 0, request_count: 0,
    group: 'default', aff_code: `c${id}ab`, aff_count: 0, aff_quota: 0, aff_history: 0, inviter_id: 0, deleted_at: null, setting: '',
    ...extra,
  });
  await db.insertInto('users').values([
    user(1, 'root', { role: 100, quota: 100_000_000, used_quota: 5_000, request_count: 3, access_token: 'rootAccessToken+/=0123456789abc' }),
    user(2, 'alice', { quota: 2_147_483_647, aff_count: 2, aff_quota: 300, aff_history: 900, telegram_id: 'tg-1', wechat_id: 'wx-1', github_id: 'gh-1', setting: '{"notify_type":"email"}', linux_do_id: 'ld-1' }),
    user(3, 'bob', { inviter_id: 2, aff_code: '', quota: 1_000_000, group: 'vip' }),
    user(4, 'carol', { deleted_at: deletedAt(d), access_token: 'carolAccessToken0123456789abcd', quota: 777 }),
    user(5, 'dave', { aff_code: '', status: 2 }),
  ]).execute();
  const token = (id: number, userId: number, extra: Record<string, unknown>) => ({
    id, user_id: userId, key: key48(`t${id}`), status: 1, name: `token-${id}`, created_time: NOW - 1000, accessed_time: NOW - 10,
    expired_time: -1, remain_quota: 0, unlimited_quota: bool(d, false), model_limits_enabled: bool(d, false), model_limits: '',
    allow_ips: '', used_quota: 0, group: '', deleted_at: null, ...extra,
  });
  await db.insertInto('tokens').values([
    token(1, 3, { key: LIVE_KEY, remain_quota: 400_000, used_quota: 100, model_limits_enabled: bool(d, true), model_limits: 'gpt-4o-mini,gpt-4o', allow_ips: '127.0.0.1\n::1\n10.0.0.0/8' }),
    token(2, 2, { unlimited_quota: bool(d, true), remain_quota: 5 }),
    token(3, 2, { status: 3, expired_time: NOW - 86_400, remain_quota: 1000 }),
    token(4, 3, { status: 4, remain_quota: 0, used_quota: 50_000 }),
    token(5, 4, { deleted_at: deletedAt(d), remain_quota: 300 }),
  ]).execute();
  const channel = (id: number, type: number, extra: Record<string, unknown>) => ({
    id, type, key: `upstream-key-${id}`, open_ai_organization: null, test_model: null, status: 1, name: `channel-${id}`, weight: null,
    created_time: NOW - 5000, test_time: 0, response_time: 0, base_url: null, other: '', balance: 0, balance_updated_time: 0,
    models: 'gpt-4o-mini', group: 'default', used_quota: 0, model_mapping: null, status_code_mapping: '', priority: null, auto_ban: null,
    other_info: '', tag: null, setting: null, param_override: null, ...extra,
  });
  await db.insertInto('channels').values([
    channel(1, 1, { key: opts.upstream?.key ?? 'upstream-key-1', base_url: opts.upstream?.url ?? '', group: 'default,vip', models: 'gpt-4o-mini, gpt-4o,', open_ai_organization: 'org-1', weight: 5, priority: 10, used_quota: 12345, balance: 12.5, tag: 'main', setting: '{"force_format":true}', model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}', status_code_mapping: '{"429":"500"}' }),
    channel(2, 999, { name: 'future-kind' }),
    channel(3, 3, { other: '2024-06-01', status: 3, other_info: '{"status_reason":"429","status_time":1700000000}' }),
    channel(4, 36, { models: 'suno_music' }),
  ]).execute();
  await db.insertInto('abilities').values([{ group: 'stale', model: 'gone', channel_id: 99, enabled: bool(d, true), priority: 0, weight: 0, tag: null }]).execute();
  await db.insertInto('options').values([
    { key: 'QuotaPerUnit', value: '500000.000000' },
    { key: 'ModelRatio', value: '{"gpt-4o-mini":0.5,"gpt-4o":1.25}' },
    { key: 'GroupRatio', value: '{"default":1,"vip":2}' },
    { key: 'CompletionRatio', value: '{"gpt-4o-mini": 4,' },
    { key: 'RetryTimes', value: '2' },
    { key: 'SystemName', value: 'Old Gateway' },
    { key: 'LinuxDOOAuthEnabled', value: 'true' },
  ]).execute();
  await db.insertInto('redemptions').values([
    { id: 1, user_id: 1, key: 'a'.repeat(32), status: 1, name: 'unused', quota: 500_000, created_time: NOW - 100, redeemed_time: 0, used_user_id: 0, deleted_at: null },
    { id: 2, user_id: 1, key: 'b'.repeat(32), status: 3, name: 'used', quota: 250_000, created_time: NOW - 100, redeemed_time: NOW - 50, used_user_id: 3, deleted_at: null },
    { id: 3, user_id: 1, key: 'c'.repeat(32), status: 1, name: 'deleted', quota: 1, created_time: NOW - 100, redeemed_time: 0, used_user_id: 0, deleted_at: deletedAt(d) },
  ]).execute();
  await insertLogs(db, opts.logs ?? 50, (i) => ({
    id: i, user_id: 3, created_at: NOW - 100_000 + i, type: i % 10 === 0 ? 1 : 2, content: i % 10 === 0 ? 'top-up' : '', username: 'bob',
    token_name: 'token-1', model_name: 'gpt-4o-mini', quota: i, prompt_tokens: 10, completion_tokens: 5, use_time: 2,
    is_stream: bool(d, i % 2 === 0), channel_id: 1, channel_name: '', token_id: 1, group: 'vip',
    other: i % 3 === 0 ? '' : i % 5 === 4 ? '{"model_ratio":0.5,"group_ratio":2,"frt":120,"cache_tokens":4}' : '{"model_ratio":0.5,"group_ratio":2,"frt":120}',
  }));
  await db.insertInto('top_ups').values([
    { id: 1, user_id: 3, amount: 10, money: 73, trade_no: 'T-1', create_time: NOW - 500, status: 'success' },
    { id: 2, user_id: 3, amount: 5, money: 36.5, trade_no: '', create_time: NOW - 400, status: 'pending' },
    { id: 3, user_id: 2, amount: 1, money: 7.3, trade_no: '', create_time: NOW - 300, status: 'pending' },
  ]).execute();
  await db.insertInto('midjourneys').values([
    { id: 1, code: 1, user_id: 3, action: 'IMAGINE', mj_id: 'mj-1', prompt: 'a cat', prompt_en: 'a cat', description: '', state: '', submit_time: 1_700_000_000_000, start_time: 1_700_000_001_000, finish_time: 1_700_000_060_000, image_url: 'https://img/1.png', status: 'SUCCESS', progress: '100%', fail_reason: '', channel_id: 1, quota: 50_000, buttons: '[{"customId":"U1"}]', properties: '' },
  ]).execute();
  await db.insertInto('tasks').values([
    { id: 1, created_at: NOW - 60, updated_at: NOW - 30, task_id: 'suno-1', platform: 'suno', user_id: 3, channel_id: 4, quota: 100_000, action: 'MUSIC', status: 'SUCCESS', fail_reason: '', submit_time: NOW - 60, start_time: NOW - 59, finish_time: NOW - 30, progress: '100%', properties: '{"input":"a song"}', data: '[{"id":"clip-1"}]' },
  ]).execute();
  await db.insertInto('quota_data').values([
    { id: 1, user_id: 3, username: 'bob', model_name: 'gpt-4o-mini', created_at: 1_700_000_000 - (1_700_000_000 % 3600), token_used: 15, count: 1, quota: 10 },
    { id: 2, user_id: 3, username: 'bob', model_name: 'gpt-4o-mini', created_at: 1_700_000_000 - (1_700_000_000 % 3600), token_used: 30, count: 2, quota: 20 },
    { id: 3, user_id: 2, username: 'alice', model_name: 'gpt-4o', created_at: 1_700_003_600 - (1_700_003_600 % 3600), token_used: 7, count: 1, quota: 70 },
  ]).execute();
  await db.insertInto('setups').values([{ id: 1, version: 'v0.6.3', initialized_at: NOW - 99_999 }]).execute();
}

async function fillOneApi(db: AnyDb, d: Dialect, opts: FixtureOptions): Promise<void> {
  const user = (id: number, username: string, extra: Record<string, unknown>) => ({
    id, username, password: BCRYPT_PASSWORD, display_name: username, role: 1, status: 1, email: '', github_id: '', wechat_id: '',
    lark_id: '', oidc_id: '', access_token: '', quota: 0, used_quota: 0, request_count: 0, group: 'default', aff_code: `o${id}cd`,
    inviter_id: 0, ...extra,
  });
  await db.insertInto('users').values([
    user(1, 'root', { role: 100, quota: 500_000_000_000_000, access_token: 'f'.repeat(32) }),
    user(2, 'erin', { quota: 3_000_000_000, used_quota: 40, lark_id: 'lark-1' }),
    user(3, `deleted_${'e'.repeat(32)}`, { status: 3, quota: 12 }),
  ]).execute();
  await db.insertInto('tokens').values([
    { id: 1, user_id: 2, key: LIVE_KEY, status: 1, name: 'live', created_time: NOW, accessed_time: NOW, expired_time: -1, remain_quota: 900_000, unlimited_quota: bool(d, false), used_quota: 0, models: 'gpt-4o-mini, gpt-4o', subnet: '127.0.0.1/32,10.0.0.0/8' },
    { id: 2, user_id: 3, key: key48('o2'), status: 1, name: 'of-deleted', created_time: NOW, accessed_time: NOW, expired_time: NOW - 10, remain_quota: 0, unlimited_quota: bool(d, true), used_quota: 0, models: null, subnet: null },
  ]).execute();
  const channel = (id: number, type: number, extra: Record<string, unknown>) => ({
    id, type, key: `upstream-${id}`, status: 1, name: `c${id}`, weight: 0, created_time: NOW, test_time: 0, response_time: 0,
    base_url: '', other: '', balance: 0, balance_updated_time: 0, models: 'gpt-4o-mini', group: 'default', used_quota: 0,
    model_mapping: '', priority: 0, config: '', system_prompt: null, ...extra,
  });
  await db.insertInto('channels').values([
    channel(1, 1, { key: opts.upstream?.key ?? 'upstream-1', base_url: opts.upstream?.url ?? '', system_prompt: 'Be brief.' }),
    channel(2, 36, { models: 'deepseek-chat' }),
    channel(3, 4, { name: 'closeai' }),
    channel(4, 33, { key: '', config: '{"region":"us-east-1","ak":"AKIA1","sk":"SECRET1"}', models: 'claude-3-haiku-20240307' }),
    channel(5, 34, { config: '{"user_id":"coze-user"}' }),
  ]).execute();
  await db.insertInto('abilities').values([{ group: 'default', model: 'gpt-4o-mini', channel_id: 1, enabled: bool(d, true), priority: 0 }]).execute();
  await db.insertInto('options').values([
    { key: 'ModelRatio', value: '{"gpt-4o-mini":0.5}' },
    { key: 'GroupRatio', value: '{"default":1}' },
    { key: 'ApproximateTokenEnabled', value: 'false' },
    { key: 'QuotaForNewUser', value: 'lots' },
  ]).execute();
  await db.insertInto('redemptions').values([
    { id: 1, user_id: 1, key: 'd'.repeat(32), status: 1, name: 'unused', quota: 1_000_000, created_time: NOW, redeemed_time: 0 },
    { id: 2, user_id: 1, key: 'e'.repeat(32), status: 3, name: 'used', quota: 2, created_time: NOW, redeemed_time: NOW },
  ]).execute();
  await insertLogs(db, opts.logs ?? 50, (i) => ({
    id: i, user_id: 2, created_at: NOW - 50_000 + i, type: i % 7 === 0 ? 5 : 2, content: '', username: 'erin', token_name: 'live',
    model_name: 'gpt-4o-mini', quota: 2 * i, prompt_tokens: 3, completion_tokens: 4, channel_id: 1, request_id: i % 2 ? `req-${i}` : '',
    elapsed_time: 1499 + i, is_stream: bool(d, false), system_prompt_reset: bool(d, false),
  }));
}

async function insertLogs(db: AnyDb, n: number, row: (i: number) => Record<string, unknown>): Promise<void> {
  const batch = 1000;
  for (let start = 1; start <= n; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(n + 1, start + batch); i++) rows.push(row(i));
    await db.insertInto('logs').values(rows).execute();
  }
}

export interface IncumbentDb {
  /** What `npm run import --` takes to read it. */
  location: string;
  source(): Promise<SourceDb>;
  drop(): Promise<void>;
}

/** Builds an incumbent database of the given system on the given dialect (server dialects need their test URLs). */
export async function incumbentDatabase(system: Incumbent, dialect: Dialect, opts: FixtureOptions = {}): Promise<IncumbentDb> {
  let location: string;
  let drop: () => Promise<void>;
  if (dialect === 'sqlite') {
    location = path.join(os.tmpdir(), `incumbent-${system}-${randomBytes(4).toString('hex')}.db`);
    const fs = await import('node:fs');
    drop = async () => {
      for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(location + suffix, { force: true });
    };
  } else {
    const server = testDatabases().find((t) => t.name === dialect);
    if (!server) throw new Error(`no ${dialect} test server configured`);
    const opened = await server.open();
    location = opened.url ?? '';
    await opened.db.close();
    drop = async () => {
      // The server database was dropped with the test's own connection; open a fresh admin connection for it.
      const { connect } = await import('../db/connect.js');
      const admin = await connect(dialect === 'postgres' ? String(process.env.SWITCHYARD_TEST_PG) : String(process.env.SWITCHYARD_TEST_MYSQL), '');
      const name = new URL(location).pathname.slice(1);
      await sql`drop database if exists ${sql.id(name)}`.execute(admin.kysely);
      await admin.close();
    };
  }
  const writable = await openWritable(dialect, location);
  try {
    await createTables(writable.kysely, dialect, system === 'new-api' ? NEW_API : ONE_API);
    await (system === 'new-api' ? fillNewApi : fillOneApi)(writable.kysely, dialect, opts);
  } finally {
    await writable.close();
  }
  return { location, source: () => openSource({ dialect, location }), drop };
}

/** SQLite as GORM leaves it: a plain file in rollback-journal mode. */
async function openWritable(dialect: Dialect, location: string): Promise<{ kysely: AnyDb; close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const { default: Sqlite } = await import('better-sqlite3');
    const kysely = new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(location) }) });
    return { kysely, close: () => kysely.destroy() };
  }
  const { connect } = await import('../db/connect.js');
  return connect(location, '');
}
