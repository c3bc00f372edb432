import { sql, type Kysely } from 'kysely';
import type { QuotaDataDto } from '@switchyard/shared';
import type { Dialect } from '../db/connect.js';
import type { Database } from '../db/schema.js';

/*
 * The data dashboard's hourly roll-up (`quota_data`): one row per user x model x hour, holding the number of
 * calls, the tokens and the quota they used. Several server processes add to the same rows, so every write is an
 * additive upsert (INSERT ... ON CONFLICT / ON DUPLICATE KEY adding to the stored values) and never a
 * read-modify-write.
 */

type Db = Kysely<Database>;

export const HOUR_SECONDS = 3600;

/** The start of the hour (unix seconds) a moment falls in: the row's `created_at`. */
export const hourOf = (unixSeconds: number): number => unixSeconds - (((unixSeconds % HOUR_SECONDS) + HOUR_SECONDS) % HOUR_SECONDS);

/** What to add to one row. */
export interface QuotaDataDelta {
  userId: number;
  username: string;
  modelName: string;
  /** Hour bucket (see hourOf). */
  createdAt: number;
  count: number;
  tokenUsed: number;
  quota: number;
  /** Prompt tokens (cache reads included) and the cache reads among them. */
  promptTokens: number;
  cacheTokens: number;
}

const ROWS_PER_STATEMENT = 100;
const ATTEMPTS = 5;

/** Deadlocks and serialization failures: the transaction did nothing and may simply run again. */
function isRetryable(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown };
  return e.code === '40P01' || e.code === '40001' || e.errno === 1213 || e.errno === 1205 || e.code === 'SQLITE_BUSY';
}

function byKey(a: QuotaDataDelta, b: QuotaDataDelta): number {
  return a.userId - b.userId || a.createdAt - b.createdAt || (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0);
}

type AddedColumn = 'count' | 'token_used' | 'quota' | 'prompt_tokens' | 'cache_tokens';

async function upsert(db: Db, dialect: Dialect, rows: QuotaDataDelta[]): Promise<void> {
  const values = rows.map((r) => ({
    user_id: r.userId,
    username: r.username,
    model_name: r.modelName,
    created_at: r.createdAt,
    count: r.count,
    token_used: r.tokenUsed,
    quota: r.quota,
    prompt_tokens: r.promptTokens,
    cache_tokens: r.cacheTokens,
  }));
  const insert = db.insertInto('quota_data').values(values);
  if (dialect === 'mysql') {
    const added = (column: AddedColumn) => sql<number>`${sql.ref(column)} + values(${sql.ref(column)})`;
    await insert
      .onDuplicateKeyUpdate({
        count: added('count'),
        token_used: added('token_used'),
        quota: added('quota'),
        prompt_tokens: added('prompt_tokens'),
        cache_tokens: added('cache_tokens'),
        username: sql<string>`values(${sql.ref('username')})`,
      })
      .execute();
    return;
  }
  await insert
    .onConflict((oc) =>
      oc.columns(['user_id', 'model_name', 'created_at']).doUpdateSet((eb) => ({
        count: eb('quota_data.count', '+', eb.ref('excluded.count')),
        token_used: eb('quota_data.token_used', '+', eb.ref('excluded.token_used')),
        quota: eb('quota_data.quota', '+', eb.ref('excluded.quota')),
        prompt_tokens: eb('quota_data.prompt_tokens', '+', eb.ref('excluded.prompt_tokens')),
        cache_tokens: eb('quota_data.cache_tokens', '+', eb.ref('excluded.cache_tokens')),
        username: eb.ref('excluded.username'),
      })),
    )
    .execute();
}

/**
 * Adds the deltas to their rows (creating missing ones), all or nothing. Rows go in key order so that two
 * processes flushing overlapping hours lock them in the same order; a deadlock that happens anyway is retried.
 */
export async function addQuotaData(db: Db, dialect: Dialect, deltas: readonly QuotaDataDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const rows = [...deltas].sort(byKey);
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await upsert(trx, dialect, rows.slice(i, i + ROWS_PER_STATEMENT));
      });
      return;
    } catch (err) {
      if (attempt >= ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}

export interface QuotaDataFilter {
  /** One user's rows (the self view). */
  userId?: number;
  /** One user's rows by name (the admin view); matches rows stored under the name and rows of the user now named so. */
  username?: string;
  /** Unix seconds; the hour containing the start is included. */
  start: number;
  end: number;
}

/**
 * Usage per model and hour in the time range, summed over the users the filter selects (every user when it
 * selects none), oldest hour first.
 */
export async function quotaDataSeries(db: Db, filter: QuotaDataFilter): Promise<QuotaDataDto[]> {
  let q = db
    .selectFrom('quota_data')
    .select((eb) => [
      'model_name',
      'created_at',
      eb.fn.sum<number>('count').as('count'),
      eb.fn.sum<number>('token_used').as('token_used'),
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('cache_tokens').as('cache_tokens'),
    ])
    .where('created_at', '>=', hourOf(filter.start))
    .where('created_at', '<=', filter.end);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  const username = filter.username;
  if (username) {
    q = q.where((eb) =>
      eb.or([
        eb('username', '=', username),
        eb('user_id', 'in', eb.selectFrom('users').select('id').where('username', '=', username)),
      ]),
    );
  }
  const rows = await q.groupBy(['created_at', 'model_name']).orderBy('created_at').orderBy('model_name').execute();
  return rows.map((r) => ({
    user_id: filter.userId ?? 0,
    username: username ?? '',
    model_name: r.model_name,
    created_at: Number(r.created_at),
    count: Number(r.count),
    token_used: Number(r.token_used),
    quota: Number(r.quota),
    prompt_tokens: Number(r.prompt_tokens),
    cache_tokens: Number(r.cache_tokens),
  }));
}
