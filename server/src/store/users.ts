import { sql, type Kysely } from 'kysely';
import type { Database, NewUser, UserRow, UserUpdate } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';

type Db = Kysely<Database>;

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Includes soft-deleted accounts: their usernames stay reserved. */
export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

/**
 * The account a sign-in names: the one with that username, else the live one with that email address (the oldest
 * when administrators gave one address to several).
 */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  return (await findUserByUsername(db, login)) ?? (await findUserByEmail(db, login));
}

export async function findUserByAccessToken(db: Db, token: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('access_token', '=', token)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findUserByAffCode(db: Db, code: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('aff_code', '=', code)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Columns a new user gets unless the caller says otherwise. */
const NEW_USER_DEFAULTS = {
  display_name: '',
  role: 1,
  status: 1,
  email: '',
  github_id: '',
  wechat_id: '',
  telegram_id: '',
  oidc_id: '',
  access_token: null,
  quota: 0,
  used_quota: 0,
  request_count: 0,
  group: 'default',
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: 0,
  setting: '{}',
  deleted_at: null,
} satisfies Partial<NewUser>;

export type NewUserInput = Pick<NewUser, 'username' | 'password' | 'aff_code'> & Partial<NewUser>;

export async function insertUser(db: Db, user: NewUserInput): Promise<number> {
  const row: NewUser = { ...NEW_USER_DEFAULTS, created_at: nowSeconds(), ...user };
  const res = await db.insertInto('users').values(row).executeTakeFirstOrThrow();
  if (res.insertId !== undefined) return Number(res.insertId);
  // PostgreSQL returns no insertId without RETURNING.
  const found = await findUserByUsername(db, user.username);
  return found!.id;
}

export async function updateUser(db: Db, id: number, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Ends every session of the account (auth/session.ts): sessions carry the epoch they were opened in. */
export async function revokeSessions(db: Db, id: number): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function softDeleteUser(db: Db, id: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ deleted_at: nowSeconds(), access_token: null })
    .where('id', '=', id)
    .execute();
}

/** Every account, soft-deleted ones included, newest first. */

/** LIKE pattern for a substring; `!` escapes, because a backslash means different things in the three dialects. */
function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

const MAX_INT32 = 2_147_483_647;

/**
 * A page of users and how many match. Keyword matches id exactly, or username / display name / email by substring;
 * group narrows when given (neither: every user). Includes soft-deleted accounts (the console shows them as
 * deregistered). Newest first.
 */
export async function pageUsers(db: Db, keyword: string, group: string, offset: number, limit: number): Promise<{ items: UserRow[]; total: number }> {
  let q = db.selectFrom('users');
  if (keyword) {
    const like = containsPattern(keyword);
    const asId = /^\d{1,10}$/.test(keyword) && Number(keyword) <= MAX_INT32 ? Number(keyword) : null;
    q = q.where((eb) =>
      eb.or([
        ...(asId !== null ? [eb('id', '=', asId)] : []),
        sql<boolean>`${sql.ref('username')} like ${like} escape '!'`,
        sql<boolean>`${sql.ref('display_name')} like ${like} escape '!'`,
        sql<boolean>`${sql.ref('email')} like ${like} escape '!'`,
      ]),
    );
  }
  if (group) q = q.where('group', '=', group);
  const [items, count] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    q.select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Adds a signed amount to a user's quota; with a negative amount only if the balance covers it. Reports whether it happened. */
export async function addUserQuota(db: Db, id: number, delta: number): Promise<boolean> {
  let q = db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', delta) }))
    .where('id', '=', id);
  if (delta < 0) q = q.where('quota', '>=', -delta);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function distinctGroups(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('users').select('group').distinct().execute();
  return rows.map((r) => r.group);
}

/** Whether a username is held by any account, soft-deleted ones included (optionally ignoring one account). */
export async function usernameTaken(db: Db, username: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('username', '=', username);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Whether an email address belongs to any account (but `exceptId`'s), soft-deleted ones included. */
export async function emailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  if (!email) return false;
  let q = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The live account holding an email address (the oldest when administrators gave one address to several). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  if (!email) return undefined;
  return db.selectFrom('users').selectAll().where('email', '=', email).where('deleted_at', 'is', null).orderBy('id').executeTakeFirst();
}

/** Whether any account (deleted ones too: the column is unique) holds this invite code. */
export async function affCodeTaken(db: Db, code: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('aff_code', '=', code).executeTakeFirst();
  return row !== undefined;
}

/** Gives an account an invite code unless it already has one. Reports whether this call set it. */
export async function setAffCodeIfEmpty(db: Db, id: number, code: string): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ aff_code: code })
    .where('id', '=', id)
    .where('aff_code', '=', '')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function setAccessToken(db: Db, id: number, token: string): Promise<void> {
  await db.updateTable('users').set({ access_token: token }).where('id', '=', id).execute();
}

/**
 * An inviter's reward for one successful invitation: one more invitee, and the reward on the invite balance
 * (aff_quota, spendable only after a transfer) and its running total. The spendable quota is not touched.
 */
export async function creditInviter(db: Db, inviterId: number, reward: number): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      aff_count: eb('aff_count', '+', 1),
      aff_quota: eb('aff_quota', '+', reward),
      aff_history_quota: eb('aff_history_quota', '+', reward),
    }))
    .where('id', '=', inviterId)
    .execute();
}

/**
 * Moves `amount` from the invite balance (aff_quota) to the spendable quota, only if the invite balance covers it:
 * one conditional UPDATE, so parallel transfers can never take more than there is. Reports whether it happened.
 */
export async function moveAffQuotaToQuota(db: Db, id: number, amount: number): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set((eb) => ({ aff_quota: eb('aff_quota', '-', amount), quota: eb('quota', '+', amount) }))
    .where('id', '=', id)
    .where('aff_quota', '>=', amount)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** An administrator's override of a balance (the edit form sends the new amount, not a delta). */
export async function setUserQuota(db: Db, id: number, quota: number): Promise<void> {
  await db.updateTable('users').set({ quota }).where('id', '=', id).execute();
}

/**
 * Distinct model names of enabled abilities in any of the groups, sorted.
 * Belongs in store/abilities.ts once that file exists (it arrives with channels).
 */
export async function modelsForGroups(db: Db, groups: string[]): Promise<string[]> {
  if (groups.length === 0) return [];
  const rows = await db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', 'in', groups)
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute();
  return rows.map((r) => r.model);
}

/** A unique-index violation on any of the three dialects (two writers raced for the same value). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e.code === '23505' ||
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062
  );
}
