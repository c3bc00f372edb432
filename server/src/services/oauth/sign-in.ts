import { USER_STATUS } from '@switchyard/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Database, UserRow } from '../../db/schema.js';
import { fail } from '../../lib/errors.js';
import { randomAlphanumeric } from '../../lib/random.js';
import { hashPassword } from '../../auth/password.js';
import { freeAffCode, insertAccount, length } from '../accounts.js';
import { emailTaken, findUserById, isUniqueViolation, usernameTaken } from '../../store/users.js';
import { findUserByBinding, setBinding, withBindingLock, type BindingColumn } from '../../store/user-bindings.js';

/*
 * Accounts behind third-party sign-ins: sign in the account an id is bound to, create one for a new id when
 * registration is open, or bind an id to the signed-in account. Each runs holding the id's lock, in one transaction,
 * so an id never ends up on two accounts and a failure never leaves half an account.
 */

type Db = Kysely<Database>;

export type OAuthMethod = 'github' | 'wechat' | 'telegram';

const COLUMN: Record<OAuthMethod, BindingColumn> = { github: 'github_id', wechat: 'wechat_id', telegram: 'telegram_id' };

export const OAUTH_MSG = {
  taken: { github: '该 GitHub 账户已被绑定', wechat: '该微信账号已被绑定', telegram: '该 Telegram 账户已被绑定' },
  notBound: '该 Telegram 账户未绑定',
  deregistered: '用户已注销',
  banned: '用户已被封禁',
  registerClosed: '管理员关闭了新用户注册',
} as const;

const USERNAME_MAX = 12;
const DISPLAY_NAME_MAX = 20;
const RANDOM_PASSWORD_LENGTH = 32;

/** What a new account gets when an unknown id signs in. */
export interface NewOAuthAccount {
  /** The name wanted (a GitHub login); cut to fit and made unique. */
  username: string;
  displayName: string;
  email: string;
  /** The inviter's code ('' when none). */
  inviterCode: string;
}

/**
 * Who a sign-in method says signed in: its stable id and, for GitHub, the login, which is what the established
 * gateway stored as the binding (docs/migrating.md). A binding imported with the login is found by it once and then
 * rewritten to the id, so the account follows its owner through later renames.
 */
export interface ExternalAccount {
  id: string;
  /** What an imported binding may hold for the same account instead of the id ('' or absent: nothing). */
  importedAs?: string;
}

/** Refuses a deregistered or banned account. */
export function checkUsable(user: UserRow): UserRow {
  if (user.deleted_at !== null) throw fail(OAUTH_MSG.deregistered);
  if (user.status !== USER_STATUS.ENABLED) throw fail(OAUTH_MSG.banned);
  return user;
}

/** The wanted name if free, else the name with _2.._9, else with a random tail: always at most 12 characters. */
export async function uniqueUsername(db: Db, wanted: string): Promise<string> {
  const base = [...wanted.replace(/[^A-Za-z0-9_-]/g, '')].slice(0, USERNAME_MAX).join('') || 'user';
  const withTail = (tail: string) => base.slice(0, USERNAME_MAX - tail.length) + tail;
  const candidates = [base, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => withTail(`_${n}`))];
  for (const name of candidates) if (!(await usernameTaken(db, name))) return name;
  for (let i = 0; i < 10; i++) {
    const name = withTail(`_${randomAlphanumeric(4)}`);
    if (!(await usernameTaken(db, name))) return name;
  }
  throw new Error(`no free username like ${base}`);
}

/** The account bound to this external account: by its id, else by what an import left, then rewritten to the id. */
async function findHolder(trx: Db, column: BindingColumn, who: ExternalAccount): Promise<UserRow | undefined> {
  const holder = await findUserByBinding(trx, column, who.id);
  if (holder || !who.importedAs || who.importedAs === who.id) return holder;
  const imported = await findUserByBinding(trx, column, who.importedAs);
  if (!imported) return undefined;
  await setBinding(trx, imported.id, column, who.id);
  return { ...imported, [column]: who.id };
}

async function createBound(ctx: AppContext, trx: Db, column: BindingColumn, id: string, account: NewOAuthAccount): Promise<UserRow> {
  const email = account.email && !(await emailTaken(trx, account.email)) ? account.email : '';
  const userId = await insertAccount(ctx, trx, {
    username: await uniqueUsername(trx, account.username),
    // No password is known: a random one that nobody holds; an administrator can set a real one.
    passwordHash: await hashPassword(randomAlphanumeric(RANDOM_PASSWORD_LENGTH)),
    displayName: [...account.displayName.trim()].slice(0, DISPLAY_NAME_MAX).join('') || account.username,
    email: length(email) <= 255 ? email : '',
    inviterCode: account.inviterCode,
    affCode: await freeAffCode(trx),
    binding: { [column]: id },
  });
  return (await findUserById(trx, userId))!;
}

/**
 * The account bound to this id, when usable. An unknown id gets a new account when `newAccount` is given and
 * registration is open; without `newAccount` (Telegram) it is refused.
 */
export async function signInWith(ctx: AppContext, method: OAuthMethod, who: ExternalAccount, newAccount?: NewOAuthAccount): Promise<UserRow> {
  const column = COLUMN[method];
  for (let attempt = 1; ; attempt++) {
    try {
      const user = await withBindingLock(ctx.db.kysely, ctx.db.dialect, column, who.id, async (trx) => {
        const holder = await findHolder(trx, column, who);
        if (holder) return holder;
        if (!newAccount) throw fail(OAUTH_MSG.notBound);
        if (!ctx.options.get('RegisterEnabled')) throw fail(OAUTH_MSG.registerClosed);
        return createBound(ctx, trx, column, who.id, newAccount);
      });
      return checkUsable(user);
    } catch (err) {
      // Another sign-up took the chosen name or invite code between the check and the insert: choose again.
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

/** Binds the id to this account (replacing the account's earlier one), unless another account holds it. */
export async function bindTo(ctx: AppContext, method: OAuthMethod, user: UserRow, who: ExternalAccount): Promise<void> {
  const column = COLUMN[method];
  await withBindingLock(ctx.db.kysely, ctx.db.dialect, column, who.id, async (trx) => {
    const holder = await findHolder(trx, column, who);
    if (holder && holder.id !== user.id) throw fail(OAUTH_MSG.taken[method]);
    const current = await findUserById(trx, user.id);
    if (!current) throw fail(OAUTH_MSG.deregistered);
    checkUsable(current);
    if (!holder) await setBinding(trx, user.id, column, who.id);
  });
}
