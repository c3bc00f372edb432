import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import { STATE, type Found, type ResponsesBackend, type StoreLimits, type StoreRow, type WriteOutcome } from './store.js';
import type { ResponseObject } from './types.js';

/*
 * Responses kept in the SQL database (table `responses`, migration 005). Expired rows are deleted by the
 * responses-retention job; reads ignore them before that (the keeper checks the time).
 */

const CHUNK = 500;

type Obj = Record<string, unknown>;

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export class SqlResponsesStore implements ResponsesBackend {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async read(userId: number, ids: readonly string[], withInput: boolean): Promise<Map<string, Found>> {
    const out = new Map<string, Found>();
    for (const part of chunks(ids, CHUNK)) {
      const rows = await this.db
        .selectFrom('responses')
        .select(['id', 'created_at', 'state', 'response'])
        .$if(withInput, (q) => q.select('input'))
        .where('user_id', '=', userId)
        .where('id', 'in', part)
        .execute();
      for (const row of rows) {
        const createdAt = Number(row.created_at);
        if (row.state !== STATE.stored) {
          out.set(row.id, { state: row.state as typeof STATE.evicted | typeof STATE.tooLarge, createdAt });
          continue;
        }
        const input = (row as { input?: string }).input;
        out.set(row.id, {
          state: STATE.stored,
          createdAt,
          response: JSON.parse(row.response) as ResponseObject,
          input: input === undefined ? undefined : (JSON.parse(input) as Obj[]),
        });
      }
    }
    return out;
  }

  /**
   * All rows in one transaction; if that fails, row by row, so one row the database refuses (MySQL's
   * max_allowed_packet, say) never holds back the others. Then the per-user limit.
   */
  async write(rows: readonly StoreRow[], limits: StoreLimits): Promise<WriteOutcome> {
    const outcome: WriteOutcome = { failed: [], errors: [] };
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const row of rows) await this.insert(trx, row);
      });
    } catch (err) {
      outcome.errors.push(err);
      for (const row of rows) {
        try {
          await this.insert(this.db, row);
        } catch (rowErr) {
          outcome.failed.push(row.id);
          outcome.errors.push(rowErr);
        }
      }
    }
    for (const userId of new Set(rows.map((r) => r.userId))) {
      try {
        await this.evict(userId, limits);
      } catch (err) {
        outcome.errors.push(err);
      }
    }
    return outcome;
  }

  async delete(userId: number, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('responses').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async expire(cutoff: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const ids = (await this.db.selectFrom('responses').select('id').where('created_at', '<', cutoff).limit(CHUNK).execute()).map((r) => r.id);
      if (ids.length === 0) return deleted;
      const result = await this.db.deleteFrom('responses').where('id', 'in', ids).executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      if (ids.length < CHUNK) return deleted;
    }
  }

  async close(): Promise<void> {
    // The database belongs to the app.
  }

  /** Idempotent: a retried row that did land (a commit whose answer was lost) is left as it is. */
  private async insert(db: Kysely<Database>, row: StoreRow): Promise<void> {
    const values = { id: row.id, user_id: row.userId, created_at: row.createdAt, state: row.state, bytes: row.bytes, response: row.response, input: row.input };
    const q = db.insertInto('responses').values(values);
    if (this.dialect === 'mysql') await q.onDuplicateKeyUpdate({ id: row.id }).execute();
    else await q.onConflict((oc) => oc.column('id').doNothing()).execute();
  }

  /** Evicts the user's oldest kept responses until the rest fit in limits.userBytes. */
  private async evict(userId: number, limits: StoreLimits): Promise<void> {
    const live = this.db
      .selectFrom('responses')
      .where('user_id', '=', userId)
      .where('state', '=', STATE.stored)
      .where('created_at', '>=', limits.cutoff);
    const { total } = await live.select((eb) => eb.fn.sum<number | string | null>('bytes').as('total')).executeTakeFirstOrThrow();
    let excess = Number(total ?? 0) - limits.userBytes;
    if (excess <= 0) return;
    const victims: string[] = [];
    const rows = await live.select(['id', 'bytes']).orderBy('created_at').orderBy('id').execute();
    for (const row of rows) {
      if (excess <= 0) break;
      victims.push(row.id);
      excess -= Number(row.bytes);
    }
    for (const part of chunks(victims, CHUNK)) {
      await this.db
        .updateTable('responses')
        .set({ state: STATE.evicted, bytes: 0, response: '', input: '' })
        .where('id', 'in', part)
        .where('user_id', '=', userId)
        .execute();
    }
  }
}
