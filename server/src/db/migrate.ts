import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './connect.js';
import * as initial from './migrations/001_initial.js';
import * as topUpQuota from './migrations/002_top_up_quota.js';
import * as logIndexes from './migrations/003_log_indexes.js';
import * as dropLogTokenIndex from './migrations/004_drop_log_token_index.js';
import * as responses from './migrations/005_responses.js';
import * as settlementBatches from './migrations/006_settlement_batches.js';
import * as emailCodes from './migrations/007_email_codes.js';
import * as tasks from './migrations/008_tasks.js';
import * as taskMoney from './migrations/009_task_money.js';
import * as reservations from './migrations/010_reservations.js';
import * as multiKey from './migrations/011_multi_key.js';
import * as sessionEpoch from './migrations/012_session_epoch.js';
import * as cacheTokens from './migrations/013_cache_tokens.js';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

const migrations: Record<string, DialectMigration> = {
  '001_initial': initial,
  '002_top_up_quota': topUpQuota,
  '003_log_indexes': logIndexes,
  '004_drop_log_token_index': dropLogTokenIndex,
  '005_responses': responses,
  '006_settlement_batches': settlementBatches,
  '007_email_codes': emailCodes,
  '008_tasks': tasks,
  '009_task_money': taskMoney,
  '010_reservations': reservations,
  '011_multi_key': multiKey,
  '012_session_epoch': sessionEpoch,
  '013_cache_tokens': cacheTokens,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(migrations)) {
      out[name] = { up: (db) => m.up(db, this.dialect) };
    }
    return out;
  }
}

/** Brings the schema up to date; safe to run on every start. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(db.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
