import { randomBytes } from 'node:crypto';
import { connect, type Db } from '../db/connect.js';

/**
 * The databases the store and API suites run on: SQLite always; PostgreSQL and MySQL when their admin URLs are
 * given (SWITCHYARD_TEST_PG, SWITCHYARD_TEST_MYSQL). Each suite gets a brand-new database, dropped afterwards.
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

export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [sqlite];
  if (process.env.SWITCHYARD_TEST_PG) list.push(serverDatabase('postgres', process.env.SWITCHYARD_TEST_PG));
  if (process.env.SWITCHYARD_TEST_MYSQL) list.push(serverDatabase('mysql', process.env.SWITCHYARD_TEST_MYSQL));
  return list;
}
