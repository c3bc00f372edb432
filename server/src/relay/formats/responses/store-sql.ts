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

/** Rows per INSERT: at most 50, and at most 4 MB of text (MySQL refuses statements over max_allowed_packet). */
function statementGroups(rows: readonly StoreRow[]): StoreRow[][] {
  const groups: StoreRow[][] = [];
  let group: StoreRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.response.length + row.input.length;
    if (group.length > 0 && (group.length >= 50 || bytes + size > 4 * 1024 * 1024)) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(row);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

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
   * All rows in one transaction, several per statement; if that fails, row by row, so one row the database refuses
   * (MySQL's max_allowed_packet, say) never holds back the others.
   */
  async write(rows: readonly StoreRow[]): Promise<WriteOutcome> {
    const outcome: WriteOutcome = { failed: [], errors: [] };
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const group of statementGroups(rows)) await this.insert(trx, group);
      });
    } catch (err) {
      outcome.errors.push(err);
      for (const row of rows) {
        try {
          await this.insert(this.db, [row]);
        } catch (rowErr) {
          outcome.failed.push(row.id);
          outcome.errors.push(rowErr);
        }
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
  private async insert(db: Kysely<Database>, rows: readonly StoreRow[]): Promise<void> {
    const values = rows.map((r) => ({ id: r.id, user_id: r.userId, created_at: r.createdAt, state: r.state, bytes: r.bytes, response: r.response, input: r.input }));
    const q = db.insertInto('responses').values(values);
    if (this.dialect === 'mysql') await q.onDuplicateKeyUpdate((eb) => ({ id: eb.ref('responses.id') })).execute();
    else await q.onConflict((oc) => oc.column('id').doNothing()).execute();
  }

  async evict(userId: number, limits: StoreLimits): Promise<void> {
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
