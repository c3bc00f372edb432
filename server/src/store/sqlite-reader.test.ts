import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { recordConsumeLog } from './logs.js';
import { logStat, pageLogs } from './log-queries.js';
import { sqliteFileOf, sqliteReader } from './sqlite-reader.js';

describe('the SQLite log reader (a worker thread over the same file)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-reader-'));
  const file = path.join(dir, 'logs.db');
  let db: Db;
  const reader = sqliteReader(file);
  const now = 1_800_000_000;

  beforeAll(async () => {
    db = await connect('', file);
    await migrateToLatest(db);
    for (let i = 0; i < 40; i++) {
      await recordConsumeLog(db.kysely, {
        userId: 1 + (i % 3), username: `u${1 + (i % 3)}`, tokenId: 1, tokenName: i % 4 === 0 ? 'rare' : 'common',
        modelName: i % 2 ? 'a' : 'b', quota: i, promptTokens: 2, completionTokens: 1, useTime: 1, isStream: false, channelId: 1,
        group: 'default', createdAt: now - i,
      });
    }
  });
  afterAll(async () => {
    await reader.destroy();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the file of a connection, and none for an in-memory one', async () => {
    expect(await sqliteFileOf(db.kysely)).toBe(file);
    const memory = await connect('', ':memory:');
    expect(await sqliteFileOf(memory.kysely)).toBeNull();
    await memory.close();
  });

  it('answers the log queries as the main connection does, including rows written after it started', async () => {
    const filters = [{}, { username: 'u2' }, { username: 'u1', tokenName: 'rare', modelName: 'b' }, { type: 2, startTimestamp: now - 9 }];
    for (const filter of filters) {
      const page = { page: 2, pageSize: 5 };
      expect(await pageLogs(reader, filter, page)).toEqual(await pageLogs(db.kysely, filter, page));
      expect(await logStat(reader, filter, now)).toEqual(await logStat(db.kysely, filter, now));
    }
    await recordConsumeLog(db.kysely, {
      userId: 9, username: 'late', tokenId: 1, tokenName: 't', modelName: 'm', quota: 5, promptTokens: 1, completionTokens: 1,
      useTime: 1, isStream: false, channelId: 1, group: 'default', createdAt: now + 1,
    });
    expect((await pageLogs(reader, { username: 'late' }, { page: 1, pageSize: 5 })).items).toHaveLength(1);
  });

  it('refuses to write', async () => {
    await expect(reader.deleteFrom('logs').execute()).rejects.toThrow();
    expect((await pageLogs(db.kysely, {}, { page: 1, pageSize: 100 })).total).toBe(41);
  });
});
