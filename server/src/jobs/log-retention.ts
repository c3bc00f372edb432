import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Options } from '../options/index.js';
import { deleteOlderThan } from '../store/batched-delete.js';
import { nowSeconds } from '../lib/time.js';
import type { Job } from './runner.js';

export const LOG_RETENTION_JOB = 'log-retention';
const DAY_SECONDS = 86_400;

/**
 * Deletes logs older than LogRetentionDays and dashboard roll-ups older than QuotaDataRetentionDays (0: keep
 * everything, the default), hourly, on one node of the deployment. Deleted in small batches with a pause between
 * them (store/batched-delete.ts), so a first run over years of logs never holds the database or the relay up.
 */
/** `logs` is the database holding the logs: the main one, or LOG_SQL_DSN's. */
export function logRetentionJob(db: Kysely<Database>, logs: Kysely<Database>, options: Options, now: () => number = nowSeconds): Job {
  return {
    name: LOG_RETENTION_JOB,
    masterOnly: true,
    leased: true,
    interval: () => 3_600_000,
    run: async () => {
      const logDays = options.get('LogRetentionDays');
      if (logDays > 0) await deleteOlderThan(logs, 'logs', 'created_at', now() - logDays * DAY_SECONDS);
      const dataDays = options.get('QuotaDataRetentionDays');
      if (dataDays > 0) await deleteOlderThan(db, 'quota_data', 'created_at', now() - dataDays * DAY_SECONDS);
    },
  };
}
