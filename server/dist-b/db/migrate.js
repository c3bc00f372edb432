import { Migrator } from 'kysely';
import * as initial from './migrations/001_initial.js';
import * as topUpQuota from './migrations/002_top_up_quota.js';
import * as logIndexes from './migrations/003_log_indexes.js';
import * as dropLogTokenIndex from './migrations/004_drop_log_token_index.js';
import * as responses from './migrations/005_responses.js';
import * as settlementBatches from './migrations/006_settlement_batches.js';
import * as emailCodes from './migrations/007_email_codes.js';
const migrations = {
    '001_initial': initial,
    '002_top_up_quota': topUpQuota,
    '003_log_indexes': logIndexes,
    '004_drop_log_token_index': dropLogTokenIndex,
    '005_responses': responses,
    '006_settlement_batches': settlementBatches,
    '007_email_codes': emailCodes,
};
class StaticProvider {
    dialect;
    constructor(dialect) {
        this.dialect = dialect;
    }
    async getMigrations() {
        const out = {};
        for (const [name, m] of Object.entries(migrations)) {
            out[name] = { up: (db) => m.up(db, this.dialect) };
        }
        return out;
    }
}
/** Brings the schema up to date; safe to run on every start. */
export async function migrateToLatest(db) {
    const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(db.dialect) });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) {
        throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
    }
}
//# sourceMappingURL=migrate.js.map