import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('SQLite statement cache', () => {
  it('prepares each SQL text once and runs it again from memory', () => {
    const raw = new Sqlite(':memory:');
    let prepared = 0;
    const counting = Object.assign(Object.create(raw) as Sqlite.Database, {
      prepare: (text: string) => {
        prepared++;
        return raw.prepare(text);
      },
    });
    const db = withStatementCache(counting);
    raw.exec('create table t (v integer)');
    for (let i = 0; i < 5; i++) db.prepare('insert into t (v) values (?)').run([i]);
    expect(prepared).toBe(1);
    expect(raw.prepare('select count(*) as n from t').get()).toEqual({ n: 5 });
  });

  it('gives a fresh statement while the cached one is still being iterated', () => {
    const raw = new Sqlite(':memory:');
    raw.exec('create table t (v integer); insert into t values (1), (2), (3)');
    const db = withStatementCache(raw);
    const select = 'select v from t order by v';
    const outer = db.prepare(select);
    const seen: number[] = [];
    for (const row of outer.iterate([]) as Iterable<{ v: number }>) {
      const inner = db.prepare(select);
      expect(inner).not.toBe(outer);
      seen.push(row.v, (inner.all([]) as Array<{ v: number }>).length);
    }
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
  });

  it('stays bounded: past the limit it starts over', () => {
    const raw = new Sqlite(':memory:');
    const db = withStatementCache(raw, 3);
    const first = db.prepare('select 1');
    for (let i = 2; i <= 4; i++) db.prepare(`select ${i}`);
    expect(db.prepare('select 1')).not.toBe(first);
  });

  it('serves Kysely, transactions included', async () => {
    const kysely = new Kysely<{ t: { v: number } }>({ dialect: new SqliteDialect({ database: withStatementCache(new Sqlite(':memory:')) }) });
    await sql`create table t (v integer)`.execute(kysely);
    await kysely.transaction().execute(async (trx) => {
      for (let v = 1; v <= 3; v++) await trx.insertInto('t').values({ v }).execute();
    });
    const rows = await kysely.selectFrom('t').select('v').orderBy('v').execute();
    expect(rows.map((r) => r.v)).toEqual([1, 2, 3]);
    await kysely.destroy();
  });
});
