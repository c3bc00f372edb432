import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import type { TestDatabase } from './databases.js';

/** A brand-new, migrated database for the suite this is called in: opened before its tests, dropped after them. */
export function migratedDatabase(database: TestDatabase): () => Db {
  let db: Db | undefined;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());
  return () => {
    if (!db) throw new Error('the database opens before the suite runs');
    return db;
  };
}
