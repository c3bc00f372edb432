import { sql, type Kysely } from 'kysely';
import { effectiveTokenStatus, TOKEN_KEY_LENGTH } from '@switchyard/shared';
import type { Database, TokenRow, TokenUpdate } from '../db/schema.js';
import { randomAlphanumeric } from '../lib/random.js';
import { nowSeconds } from '../lib/time.js';
import { likeEscape } from './like-escape.js';

type Db = Kysely<Database>;

/*
 * Keys are compared in JavaScript after the SQL lookup as well: MySQL's default collation compares strings
 * case-insensitively, and a key must match exactly.
 */

export const generateTokenKey = (): string => randomAlphanumeric(TOKEN_KEY_LENGTH);

/** How many fresh keys to try when the unique index reports a collision (62^48 makes even one retry unlikely). */
const KEY_ATTEMPTS = 5;

export interface NewTokenInput {
  user_id: number;
  name: string;
  status: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
}

/** The writable columns in their storage form (flags as 0/1). */
export type TokenChanges = Omit<Partial<NewTokenInput>, 'user_id' | 'unlimited_quota' | 'model_limits_enabled'> & {
  unlimited_quota?: boolean;
  model_limits_enabled?: boolean;
};

function storageForm(changes: TokenChanges): TokenUpdate {
  const { unlimited_quota, model_limits_enabled, ...rest } = changes;
  const out: TokenUpdate = { ...rest };
  if (unlimited_quota !== undefined) out.unlimited_quota = unlimited_quota ? 1 : 0;
  if (model_limits_enabled !== undefined) out.model_limits_enabled = model_limits_enabled ? 1 : 0;
  return out;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505' || code === 'ER_DUP_ENTRY';
}

/** Inserts a token with a fresh random key (retrying on the unlikely collision) and returns the stored row. */
export async function insertToken(db: Db, input: NewTokenInput, generateKey: () => string = generateTokenKey): Promise<TokenRow> {
  const now = nowSeconds();
  for (let attempt = 1; ; attempt++) {
    const key = generateKey();
    try {
      await db
        .insertInto('tokens')
        .values({
          user_id: input.user_id,
          key,
          status: input.status,
          name: input.name,
          created_time: now,
          accessed_time: now,
          expired_time: input.expired_time,
          remain_quota: input.remain_quota,
          unlimited_quota: input.unlimited_quota ? 1 : 0,
          model_limits_enabled: input.model_limits_enabled ? 1 : 0,
          model_limits: input.model_limits,
          allow_ips: input.allow_ips,
          used_quota: 0,
          group: input.group,
          deleted_at: null,
        })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err) && attempt < KEY_ATTEMPTS) continue;
      throw err;
    }
    const row = await findTokenByKey(db, key);
    if (!row) throw new Error('inserted token not found by its key');
    return row;
  }
}

/** A live (not deleted) token by its key, without the sk- prefix. Deleted keys never authenticate again. */
export async function findTokenByKey(db: Db, key: string): Promise<TokenRow | undefined> {
  if (key.length !== TOKEN_KEY_LENGTH) return undefined;
  const row = await db
    .selectFrom('tokens')
    .selectAll()
    .where('key', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && row.key === key ? row : undefined;
}

/** One of the user's own live tokens. */
export async function findOwnToken(db: Db, userId: number, id: number): Promise<TokenRow | undefined> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The user's live tokens, newest first. */
export async function listOwnTokens(db: Db, userId: number, offset: number, limit: number): Promise<TokenRow[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export interface TokenSearch {
  /** Substring of the name, case-insensitive on every database. */
  keyword: string;
  /** Start of the key (without sk-); matched case-sensitively. */
  keyPrefix: string;
}


export async function searchOwnTokens(db: Db, userId: number, search: TokenSearch, offset: number, limit: number): Promise<TokenRow[]> {
  const { keyword, keyPrefix } = search;
  // Keys are alphanumeric, so anything else cannot match (and needs no escaping).
  if (keyPrefix !== '' && !/^[A-Za-z0-9]+$/.test(keyPrefix)) return [];
  let q = db.selectFrom('tokens').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null);
  if (keyword !== '') {
    const pattern = `%${likeEscape(keyword.toLowerCase())}%`;
    q = q.where(sql<boolean>`lower(${sql.ref('name')}) like ${pattern} escape '!'`);
  }
  if (keyPrefix !== '') q = q.where('key', 'like', `${keyPrefix}%`);
  const rows = await q.orderBy('id', 'desc').offset(offset).limit(limit).execute();
  return rows.filter((r) => r.key.startsWith(keyPrefix));
}

/** Changes one of the user's own live tokens; reports whether it existed. */
export async function updateOwnToken(db: Db, userId: number, id: number, changes: TokenChanges): Promise<boolean> {
  const res = await db
    .updateTable('tokens')
    .set(storageForm(changes))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Soft delete: the row (and so its key) stays, so the key is never handed out or accepted again. */
export async function softDeleteOwnToken(db: Db, userId: number, id: number): Promise<boolean> {
  const res = await db
    .updateTable('tokens')
    .set({ deleted_at: nowSeconds() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * The row with its effective status (expiry and exhaustion applied). When that differs from the stored one it is
 * written back, guarded by the status read, so a concurrent change by the owner is never overwritten; a stale
 * write is harmless because the rule recomputes from the owner's on/off intent on every read.
 */
export async function observeTokenStatus(db: Db, row: TokenRow, now: number = nowSeconds()): Promise<TokenRow> {
  const status = effectiveTokenStatus(row, now);
  if (status === row.status) return row;
  await db.updateTable('tokens').set({ status }).where('id', '=', row.id).where('status', '=', row.status).execute();
  return { ...row, status };
}

export async function observeTokenStatuses(db: Db, rows: TokenRow[], now: number = nowSeconds()): Promise<TokenRow[]> {
  return Promise.all(rows.map((row) => observeTokenStatus(db, row, now)));
}

