import { randomBytes } from 'node:crypto';
import { connect, type Db } from '../db/connect.js';
import { needs } from './services.js';

/**
 * The databases the store and API suites run on: SQLite always; PostgreSQL and MySQL when their admin URLs are
 * given (SWITCHYARD_TEST_PG, SWITCHYARD_TEST_MYSQL), recorded as skipped otherwise (services.ts). Each suite gets a
 * brand-new database, dropped afterwards.
 */
export interface TestDatabase {
  name: 'sqlite' | 'postgres' | 'mysql';
  /** `url` (server databases): the new database's DSN, for a second connection to it (another node). */
  open(): Promise<{ db: Db; drop(): Promise<void>; url?: string }>;
}

function uniqueName(): string {
  return `sy_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

function withDatabase(url: string, dbName: string): string {
  const u = new URL(url);
  u.pathname = `/${dbName}`;
  return u.toString();
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  async open() {
    const db = await connect('', ':memory:');
    return { db, drop: () => db.close() };
  },
};

function serverDatabase(name: 'postgres' | 'mysql', adminUrl: string): TestDatabase {
  return {
    name,
    async open() {
      const dbName = uniqueName();
      const admin = await connect(adminUrl, '');
      const { sql } = await import('kysely');
      await sql`create database ${sql.id(dbName)}`.execute(admin.kysely);
      const url = withDatabase(adminUrl, dbName);
      const db = await connect(url, '');
      return {
        db,
        url,
        async drop() {
          await db.close();
          await sql`drop database ${sql.id(dbName)}`.execute(admin.kysely);
          await admin.close();
        },
      };
    },
  };
}

const ALL: TestDatabase['name'][] = ['sqlite', 'postgres', 'mysql'];

/** The databases of `kinds` (all by default) a suite runs on; a server database not configured is recorded as skipped. */
export function testDatabases(kinds: TestDatabase['name'][] = ALL): TestDatabase[] {
  const list: TestDatabase[] = [];
  if (kinds.includes('sqlite')) list.push(sqlite);
  if (kinds.includes('postgres') && needs(['postgres'], 'its runs on PostgreSQL')) list.push(serverDatabase('postgres', process.env.SWITCHYARD_TEST_PG!));
  if (kinds.includes('mysql') && needs(['mysql'], 'its runs on MySQL')) list.push(serverDatabase('mysql', process.env.SWITCHYARD_TEST_MYSQL!));
  return list;
}
