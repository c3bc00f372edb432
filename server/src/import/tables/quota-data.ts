import { sql, type Insertable } from 'kysely';
import type { QuotaDataTable } from '../../db/schema.js';
import { balance, recordedAmount } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, int, text } from '../values.js';

type Bucket = Insertable<QuotaDataTable>;

/**
 * Our roll-up holds one row per (user, model, hour); new-api does not enforce that, so rows for the same bucket are
 * added together (first id kept): the sums stay those of the source, the row count may shrink (reported).
 */
export function quotaDataImport(): TableImport<'quota_data'> {
  return {
    source: 'quota_data',
    target: 'quota_data',
    reads: ['id', 'user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'],
    map(row, ctx) {
      return {
        id: int(row.id),
        user_id: int(row.user_id),
        username: clip(text(row.username), 64),
        model_name: clip(text(row.model_name), 255),
        created_at: int(row.created_at),
        token_used: balance(row.token_used, 'token_used', ctx),
        count: balance(row.count, 'count', ctx),
        quota: recordedAmount(row.quota, 'quota', ctx),
      };
    },
    async insert(trx, rows, ctx) {
      const buckets = new Map<string, Bucket>();
      for (const r of rows) {
        const k = JSON.stringify([r.user_id, r.model_name, r.created_at]);
        const seen = buckets.get(k);
        if (!seen) buckets.set(k, { ...r });
        else {
          seen.token_used = Number(seen.token_used) + Number(r.token_used);
          seen.count = Number(seen.count) + Number(r.count);
          seen.quota = Number(seen.quota) + Number(r.quota);
          ctx.note('row added into an earlier row of the same user, model and hour');
        }
      }
      for (const b of buckets.values()) {
        // A bucket seen in an earlier batch: add into it. Rare, so one statement each is fine.
        const existing = await trx
          .updateTable('quota_data')
          .set({
            token_used: sql`token_used + ${b.token_used}`,
            count: sql`count + ${b.count}`,
            quota: sql`quota + ${b.quota}`,
          })
          .where('user_id', '=', Number(b.user_id))
          .where('model_name', '=', String(b.model_name))
          .where('created_at', '=', Number(b.created_at))
          .executeTakeFirst();
        if (Number(existing.numUpdatedRows) > 0) {
          ctx.note('row added into an earlier row of the same user, model and hour');
          buckets.delete(JSON.stringify([b.user_id, b.model_name, b.created_at]));
        }
      }
      if (buckets.size > 0) await trx.insertInto('quota_data').values([...buckets.values()]).execute();
      return buckets.size;
    },
  };
}
