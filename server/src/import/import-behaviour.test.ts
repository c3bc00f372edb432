import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { startTestApp, type TestApp } from '../test/app.js';
import { incumbentDatabase, LIVE_KEY, type IncumbentDb } from '../test/incumbent-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { readCatalog, type Catalog } from './catalog.js';
import { runCli } from './cli.js';
import { detectSystem } from './detect.js';
import { ImportRefused, runImport } from './runner.js';
import { parseSource } from './source.js';
import { IMPORT_MARKER } from './target.js';

/* What an operator meets around an import (on SQLite): the accounts and keys work afterwards, and a stopped or
 * repeated import never leaves half the data. */

const tmpFile = (name: string) => path.join(os.tmpdir(), `import-${name}-${process.pid}-${Math.random().toString(36).slice(2)}.db`);

async function rowCount(db: Db): Promise<number> {
  let n = 0;
  for (const t of ['users', 'tokens', 'channels', 'abilities', 'options', 'redemptions', 'logs', 'top_ups', 'midjourneys', 'tasks', 'quota_data'] as const) {
    const r = await db.kysely.selectFrom(t).select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    n += Number(r.n);
  }
  return n;
}

async function importFrom(incumbent: IncumbentDb, target: Db, opts: Parameters<typeof runImport>[3] = {}) {
  const source = await incumbent.source();
  try {
    return await runImport(source, incumbent.location, target, opts);
  } finally {
    await source.close();
  }
}

describe('after importing new-api', () => {
  let mock: MockOpenAI;
  let incumbent: IncumbentDb;
  let t: TestApp;
  beforeAll(async () => {
    mock = await startMockOpenAI();
    incumbent = await incumbentDatabase('new-api', 'sqlite', { upstream: { url: mock.url, key: mock.key } });
    const db = await connect('', ':memory:');
    await importFrom(incumbent, db);
    t = await startTestApp({ name: 'sqlite', open: async () => ({ db, drop: () => db.close() }) });
  });
  afterAll(async () => {
    await t?.close();
    await incumbent?.drop();
    await mock?.close();
  });

  it('signs old accounts in with their old passwords, and keeps deleted ones out', async () => {
    await expect(t.login('alice', 'password')).resolves.toMatchObject({ userId: 2 });
    await expect(t.login('alice', 'wrong-password')).rejects.toThrow();
    await expect(t.login('carol', 'password')).rejects.toThrow();
    await expect(t.login('dave', 'password')).rejects.toThrow();
  });

  it('relays an old key with its remaining quota and charges it by the imported prices', async () => {
    const before = await t.app.ctx.db.kysely.selectFrom('logs').select((e) => e.fn.max('id').as('max')).executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer sk-${LIVE_KEY}`, 'content-type': 'application/json' },
      payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(res.statusCode).toBe(200);
    await t.app.ctx.relay.settler.flush();
    const k = t.app.ctx.db.kysely;
    const log = await k.selectFrom('logs').selectAll().where('id', '>', Number(before.max)).where('type', '=', 2).executeTakeFirstOrThrow();
    // ModelRatio gpt-4o-mini 0.5 and GroupRatio vip 2 came from the source (our defaults are 0.075 and 1).
    expect(JSON.parse(log.other)).toMatchObject({ model_ratio: 0.5, group_ratio: 2 });
    expect(log.quota).toBeGreaterThan(0);
    const token = await k.selectFrom('tokens').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const user = await k.selectFrom('users').selectAll().where('id', '=', 3).executeTakeFirstOrThrow();
    expect(token.remain_quota).toBe(400_000 - log.quota);
    expect(user.quota).toBe(1_000_000 - log.quota);
  });

  it('refuses the exhausted, expired and deleted keys', async () => {
    for (const id of [3, 4, 5]) {
      const { key } = await t.app.ctx.db.kysely.selectFrom('tokens').select('key').where('id', '=', id).executeTakeFirstOrThrow();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer sk-${key}` },
        payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(res.statusCode, `token ${id}`).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('a stopped import', () => {
  let incumbent: IncumbentDb;
  beforeAll(async () => {
    incumbent = await incumbentDatabase('new-api', 'sqlite', { logs: 300 });
  });
  afterAll(() => incumbent.drop());

  it('that fails half-way leaves the target empty', async () => {
    const db = await connect('', ':memory:');
    await expect(
      importFrom(incumbent, db, {
        afterTable: (table) => {
          if (table === 'redemptions') throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(await rowCount(db)).toBe(0);
    await importFrom(incumbent, db);
    expect(await rowCount(db)).toBeGreaterThan(300);
    await db.close();
  });

  it('that is aborted (Ctrl-C) between two batches leaves the target empty', async () => {
    const db = await connect('', ':memory:');
    const stop = new AbortController();
    await expect(importFrom(incumbent, db, { signal: stop.signal, pageSize: 100, afterTable: (t) => (t === 'midjourneys' ? stop.abort() : undefined) })).rejects.toThrow(
      'import stopped',
    );
    expect(await rowCount(db)).toBe(0);
    await db.close();
  });

  it('that was killed is cleared by the next run, which then completes', async () => {
    const db = await connect('', ':memory:');
    await migrateToLatest(db);
    // What a killed import leaves: its marker and the tables it had committed.
    await db.kysely.insertInto('options').values([{ key: IMPORT_MARKER, value: '1' }, { key: 'SystemName', value: 'half' }]).execute();
    await db.kysely
      .insertInto('users')
      .values({ id: 1, username: 'root', password: 'x', display_name: '', role: 100, status: 1, email: '', github_id: '', wechat_id: '', telegram_id: '', oidc_id: '', access_token: null, quota: 1, used_quota: 0, request_count: 0, group: 'default', aff_code: 'zzzz', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, setting: '', created_at: 0, deleted_at: null })
      .execute();
    const result = await importFrom(incumbent, db);
    expect(result.summary).toContain('an earlier import was stopped half-way');
    const root = await db.kysely.selectFrom('users').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(root.quota).toBe(100_000_000);
    expect(await db.kysely.selectFrom('options').select('key').where('key', '=', IMPORT_MARKER).executeTakeFirst()).toBeUndefined();
    await db.close();
  });
});

describe('the target', () => {
  let incumbent: IncumbentDb;
  beforeAll(async () => {
    incumbent = await incumbentDatabase('one-api', 'sqlite');
  });
  afterAll(() => incumbent.drop());

  it('may hold the root account of a first start, which the imported accounts replace', async () => {
    const fresh = await connect('', ':memory:');
    await migrateToLatest(fresh);
    const { AccountState } = await import('../auth/account-state.js');
    await new AccountState(fresh.kysely).ensureRoot(100);
    await importFrom(incumbent, fresh);
    const users = await fresh.kysely.selectFrom('users').select(['id', 'username', 'quota']).orderBy('id').execute();
    expect(users[0]).toEqual({ id: 1, username: 'root', quota: 500_000_000_000_000 });
    await fresh.close();
  });

  it('is refused when it holds anything else, and left as it was', async () => {
    const db = await connect('', ':memory:');
    await migrateToLatest(db);
    await db.kysely.insertInto('options').values({ key: 'SystemName', value: 'mine' }).execute();
    await expect(importFrom(incumbent, db)).rejects.toThrow(ImportRefused);
    expect(await db.kysely.selectFrom('options').selectAll().execute()).toEqual([{ key: 'SystemName', value: 'mine' }]);
    await db.close();
  });
});

describe('the command line', () => {
  it('imports into the database SQLITE_PATH names and prints the summary', async () => {
    const incumbent = await incumbentDatabase('one-api', 'sqlite');
    const target = tmpFile('target');
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s) };
    try {
      const config = loadConfig({ SQLITE_PATH: target, SQL_DSN: '' });
      expect(await runCli([`sqlite:${incumbent.location}`], config, io)).toBe(0);
      expect(out.join('\n')).toMatch(/Detected: one-api[\s\S]*users: 3 of 3 rows[\s\S]*logs: 50 of 50 rows/);
      expect(await runCli([incumbent.location], config, io)).toBe(2);
      expect(err.join('\n')).toContain('import refused: the target database already holds data');
      expect(await runCli([], config, io)).toBe(2);
      expect(await runCli([incumbent.location, '--force'], config, io)).toBe(2);
    } finally {
      await incumbent.drop();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
    }
  });

  it('reads the logs from a database of their own when told (--logs)', async () => {
    const main = await incumbentDatabase('new-api', 'sqlite', { logs: 5 });
    const logs = await incumbentDatabase('new-api', 'sqlite', { logs: 120 });
    const target = tmpFile('target');
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    try {
      expect(await runCli([main.location, '--logs', logs.location], loadConfig({ SQLITE_PATH: target, SQL_DSN: '' }), io)).toBe(0);
      expect(out.join('\n')).toContain('logs: 120 of 120 rows');
      expect(await runCli([main.location, '--logs'], loadConfig({ SQLITE_PATH: target, SQL_DSN: '' }), io)).toBe(2);
    } finally {
      await main.drop();
      await logs.drop();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
    }
  });

  it('reads every form of source address', () => {
    expect(parseSource('/data/one-api.db')).toEqual({ dialect: 'sqlite', location: '/data/one-api.db' });
    expect(parseSource('sqlite:/data/one-api.db')).toEqual({ dialect: 'sqlite', location: '/data/one-api.db' });
    expect(parseSource('sqlite:///data/one-api.db')).toEqual({ dialect: 'sqlite', location: '/data/one-api.db' });
    expect(parseSource('postgresql://u:p@h/db').dialect).toBe('postgres');
    expect(parseSource('mysql://u:p@h:3306/db').dialect).toBe('mysql');
    expect(parseSource('root:secret@tcp(127.0.0.1:3306)/oneapi?parseTime=true').dialect).toBe('mysql');
  });
});

describe('detection', () => {
  const catalog = (tables: Record<string, string[]>): Catalog => new Map(Object.entries(tables).map(([t, c]) => [t, new Set(c)]));
  const base = { users: ['id', 'username'], tokens: ['id', 'key'], channels: ['id', 'type'], options: ['key', 'value'] };

  it('tells new-api, a newer new-api, one-api and a database upgraded from one-api to new-api apart', () => {
    expect(detectSystem(catalog({ ...base, top_ups: ['id'] })).description).toBe('new-api (up to April 2025)');
    expect(detectSystem(catalog({ ...base, channels: ['id', 'channel_info'], users: ['id', 'aff_history'], two_fas: ['id'] })).description).toBe(
      'new-api (after April 2025: channels.channel_info, two_fas)',
    );
    expect(detectSystem(catalog({ ...base, tokens: ['id', 'models', 'subnet'] }))).toMatchObject({ system: 'one-api' });
    expect(detectSystem(catalog({ ...base, users: ['id', 'lark_id', 'aff_history'] })).description).toContain('upgraded from one-api (users.lark_id ignored)');
  });

  it('refuses a database that is neither, Switchyard’s own included', async () => {
    expect(() => detectSystem(catalog({ users: ['id'] }))).toThrow('not a new-api or one-api database: no table tokens, channels, options');
    const db = await connect('', ':memory:');
    await migrateToLatest(db);
    const ours = await readCatalog({ kysely: db.kysely, dialect: 'sqlite', close: async () => {} });
    expect(() => detectSystem(ours)).toThrow('this is a Switchyard database');
    await db.close();
  });
});
