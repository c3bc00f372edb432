import { sql, type Kysely } from 'kysely';
import { LOG_TYPE, REDEMPTION_STATUS } from '@switchyard/shared';
import type { Database, RedemptionRow } from '../db/schema.js';
import { randomHex } from '../lib/random.js';
import { nowSeconds } from '../lib/time.js';
import { logQuota, recordLog, type QuotaDisplayOptions } from './logs.js';
import { addUserQuota, isUniqueViolation } from './users.js';
import { likeEscape } from './like-escape.js';

type Db = Kysely<Database>;

/*
 * Redemption codes. A code turns into quota exactly once: the switch from unused to used is a conditional UPDATE
 * (`status = 1`) in the same transaction as the credit and the top-up log, so of any number of concurrent attempts
 * one changes the row and the others change nothing. Every other write is conditional on the status it needs too:
 * a used code can never be switched back to unused, and an edit cannot slip in between a redeem's check and its
 * credit. Deleted codes stay in the table (soft delete), so their keys are never accepted or handed out again.
 */

/** 128 random bits as 32 lowercase hex digits. */
export const generateRedemptionKey = (): string => randomHex(16);

/** How many times a create is retried when a fresh key collides with a stored one (2^-128: never, in practice). */
const KEY_ATTEMPTS = 3;

export interface NewRedemptions {
  /** The administrator creating them. */
  userId: number;
  name: string;
  quota: number;
  count: number;
}

/** Inserts `count` codes in one transaction (all or none) and returns their keys in creation order. */
export async function insertRedemptions(db: Db, input: NewRedemptions, generateKey: () => string = generateRedemptionKey): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const now = nowSeconds();
    const keys = Array.from({ length: input.count }, generateKey);
    const rows = keys.map((key) => ({
      user_id: input.userId,
      key,
      status: REDEMPTION_STATUS.UNUSED,
      name: input.name,
      quota: input.quota,
      created_time: now,
      redeemed_time: 0,
      used_user_id: 0,
      deleted_at: null,
    }));
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('redemptions').values(rows).execute();
      });
      return keys;
    } catch (err) {
      if (isUniqueViolation(err) && attempt < KEY_ATTEMPTS) continue;
      throw err;
    }
  }
}

const live = (db: Db) => db.selectFrom('redemptions').selectAll().where('deleted_at', 'is', null);

export async function findRedemption(db: Db, id: number): Promise<RedemptionRow | undefined> {
  return live(db).where('id', '=', id).executeTakeFirst();
}

/** Newest first. */
export async function listRedemptions(db: Db, offset: number, limit: number): Promise<RedemptionRow[]> {
  return live(db).orderBy('id', 'desc').offset(offset).limit(limit).execute();
}

const MAX_INT32 = 2_147_483_647;

/** The keyword matches the id exactly or the name by substring (case-insensitive). Newest first. */
export async function searchRedemptions(db: Db, keyword: string, offset: number, limit: number): Promise<RedemptionRow[]> {
  let q = live(db);
  if (keyword !== '') {
    const pattern = `%${likeEscape(keyword.toLowerCase())}%`;
    const asId = /^\d{1,10}$/.test(keyword) && Number(keyword) <= MAX_INT32 ? Number(keyword) : null;
    q = q.where((eb) =>
      eb.or([
        ...(asId !== null ? [eb('id', '=', asId)] : []),
        sql<boolean>`lower(${sql.ref('name')}) like ${pattern} escape '!'`,
      ]),
    );
  }
  return q.orderBy('id', 'desc').offset(offset).limit(limit).execute();
}

export type ChangeOutcome = 'ok' | 'missing' | 'used' | 'not_unused';

type CodeState = 'missing' | 'unused' | 'disabled' | 'used';

/** Where code `id` stands now; asked after a conditional change changed nothing, to say why. */
async function codeState(db: Db, id: number): Promise<CodeState> {
  const row = await findRedemption(db, id);
  if (!row) return 'missing';
  if (row.status === REDEMPTION_STATUS.UNUSED) return 'unused';
  return row.status === REDEMPTION_STATUS.USED ? 'used' : 'disabled';
}

/*
 * MySQL may count only rows whose values really changed, so "nothing updated" can also mean "already so": the
 * state read afterwards tells which.
 */

/** Renames or re-prices a code; only an unused one (spec §4), checked in the same statement. */
export async function updateRedemption(db: Db, id: number, changes: { name?: string; quota?: number }): Promise<ChangeOutcome> {
  if (changes.name !== undefined || changes.quota !== undefined) {
    const res = await db
      .updateTable('redemptions')
      .set(changes)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('status', '=', REDEMPTION_STATUS.UNUSED)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) > 0) return 'ok';
  }
  const state = await codeState(db, id);
  if (state === 'missing') return 'missing';
  return state === 'unused' ? 'ok' : 'not_unused';
}

/** Switches a code between unused (1) and disabled (2); a used code keeps its status. */
export async function setRedemptionStatus(db: Db, id: number, status: 1 | 2): Promise<ChangeOutcome> {
  const res = await db
    .updateTable('redemptions')
    .set({ status })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', 'in', [REDEMPTION_STATUS.UNUSED, REDEMPTION_STATUS.DISABLED])
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) return 'ok';
  const state = await codeState(db, id);
  if (state === 'missing' || state === 'used') return state;
  return 'ok';
}

export async function softDeleteRedemption(db: Db, id: number): Promise<boolean> {
  const res = await db
    .updateTable('redemptions')
    .set({ deleted_at: nowSeconds() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export type RedeemOutcome =
  | { ok: true; quota: number; redemptionId: number }
  | { ok: false; reason: 'invalid' | 'used' | 'disabled' | 'no_user' };

class NoUser extends Error {}

/**
 * Turns a code into quota for `userId`, exactly once: in one transaction the code goes from unused to used (a
 * conditional UPDATE — of concurrent attempts only one matches), the user is credited with the code's quota as the
 * code holds it at that moment, and the top-up log is written. `key` must already be normalized (lowercase hex).
 */
export async function redeemCode(db: Db, userId: number, key: string, display: QuotaDisplayOptions): Promise<RedeemOutcome> {
  const claimed = await db
    .transaction()
    .execute(async (trx) => {
      const now = nowSeconds();
      const res = await trx
        .updateTable('redemptions')
        .set({ status: REDEMPTION_STATUS.USED, used_user_id: userId, redeemed_time: now })
        .where('key', '=', key)
        .where('deleted_at', 'is', null)
        .where('status', '=', REDEMPTION_STATUS.UNUSED)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return null;
      // The row is ours now (locked until commit on PostgreSQL and MySQL, the only writer on SQLite): its quota
      // cannot change under us.
      const code = await trx.selectFrom('redemptions').select(['id', 'quota']).where('key', '=', key).executeTakeFirstOrThrow();
      if (!(await addUserQuota(trx, userId, code.quota))) throw new NoUser();
      await recordLog(trx, {
        userId,
        type: LOG_TYPE.TOPUP,
        content: `通过兑换码充值 ${logQuota(code.quota, display)}，兑换码ID ${code.id}`,
        quota: code.quota,
      });
      return { quota: code.quota, redemptionId: code.id };
    })
    .catch((err: unknown) => {
      if (err instanceof NoUser) return 'no_user' as const;
      throw err;
    });
  if (claimed === 'no_user') return { ok: false, reason: 'no_user' };
  if (claimed) return { ok: true, ...claimed };
  const row = await db
    .selectFrom('redemptions')
    .select(['key', 'status'])
    .where('key', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.key !== key) return { ok: false, reason: 'invalid' };
  return { ok: false, reason: row.status === REDEMPTION_STATUS.DISABLED ? 'disabled' : 'used' };
}
