import type { Kysely } from 'kysely';
import { LOG_TYPE, ROLE, USER_STATUS, type UserDto } from '@switchyard/shared';
import type { AppContext } from '../context.js';
import type { Database, NewUser, UserRow, UserUpdate } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { randomAlphanumeric } from '../lib/random.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from '../auth/password.js';
import { CODE_MSG } from '../auth/verification/index.js';
import { endSessions } from '../auth/session.js';
import {
  addUserQuota,
  affCodeTaken,
  creditInviter,
  emailTaken,
  findUserByAffCode,
  findUserById,
  insertUser,
  isUniqueViolation,
  setAccessToken,
  setAffCodeIfEmpty,
  setUserQuota,
  softDeleteUser,
  updateUser,
  usernameTaken,
} from '../store/users.js';
import { logQuota, recordLog } from '../store/logs.js';

/** Accounts: creation with invite rewards, administration rules, invite codes and access tokens. */

type Db = Kysely<Database>;

const USERNAME_MAX = 12;
const DISPLAY_NAME_MAX = 20;
const GROUP_MAX = 64;
const EMAIL_MAX = 255;
const AFF_CODE_LENGTH = 4;
const ACCESS_TOKEN_LENGTH = 32;

export const MSG = {
  taken: '用户名已存在，或已注销',
  notFound: '用户不存在',
  noRightsRead: '无权获取同级或更高等级用户的信息',
  noRightsUpdate: '无权更新同权限等级或更高权限等级的用户信息',
} as const;

/** The shape every read of a user row returns. Never the password hash or the access token. */
export function userView(u: UserRow): UserDto {
  return {
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    role: u.role,
    status: u.status,
    email: u.email,
    github_id: u.github_id,
    wechat_id: u.wechat_id,
    telegram_id: u.telegram_id,
    oidc_id: u.oidc_id,
    quota: u.quota,
    used_quota: u.used_quota,
    request_count: u.request_count,
    group: u.group,
    aff_code: u.aff_code,
    aff_count: u.aff_count,
    aff_quota: u.aff_quota,
    aff_history_quota: u.aff_history_quota,
    inviter_id: u.inviter_id,
    DeletedAt: u.deleted_at,
  };
}

// ---- rules ----

/** Characters, not UTF-16 units: a Chinese name of 12 characters is 12. */
export const length = (s: string): number => [...s].length;

export function checkUsername(username: string): void {
  if (!username) throw fail('用户名不能为空');
  if (length(username) > USERNAME_MAX) throw fail(`用户名长度不得大于 ${USERNAME_MAX} 位！`);
}

export function checkPassword(password: string): void {
  if (length(password) < PASSWORD_MIN) throw fail(`密码长度不得小于 ${PASSWORD_MIN} 位！`);
  if (length(password) > PASSWORD_MAX) throw fail(`密码长度不得大于 ${PASSWORD_MAX} 位！`);
}

export function checkDisplayName(name: string): void {
  if (length(name) > DISPLAY_NAME_MAX) throw fail(`显示名称长度不得大于 ${DISPLAY_NAME_MAX} 位！`);
}

/** An administrator acts only on users below their own role; the super admin on everyone. */
export const outranks = (actor: UserRow, target: UserRow): boolean => actor.role >= ROLE.ROOT || actor.role > target.role;

// ---- services ----

/** An invite code no account holds yet. */
export async function freeAffCode(db: Db): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const code = randomAlphanumeric(AFF_CODE_LENGTH);
    if (!(await affCodeTaken(db, code))) return code;
  }
  throw new Error('no free invite code after 20 draws');
}

interface NewAccount {
  username: string;
  password: string;
  displayName: string;
  email: string;
  /** The inviter's code from the registration form ('' when none). */
  inviterCode: string;
  /**
   * Uses up what proved the email address (its code), in the account's transaction: two sign-ups with one code
   * cannot both succeed, and a refused sign-up leaves the code usable. Throws to refuse.
   */
  claim?: (trx: Db) => Promise<void>;
}

/** A new account as written: its password already hashed, its invite code drawn, maybe a sign-in bound to it. */
export interface AccountRow {
  username: string;
  passwordHash: string;
  displayName: string;
  email: string;
  inviterCode: string;
  affCode: string;
  /** A third-party sign-in the account is created with (GitHub, WeChat). */
  binding?: Partial<Pick<NewUser, 'github_id' | 'wechat_id' | 'telegram_id'>>;
  /** Uses up what proved the email address, in the account's transaction (see NewAccount). */
  claim?: (trx: Db) => Promise<void>;
}

/**
 * The writes of one new common user, inside the caller's transaction: the row with the starting quota and, when
 * invited, the invite rewards and their logs. Refuses a name or email already held.
 */
export async function insertAccount(ctx: AppContext, trx: Db, account: AccountRow): Promise<number> {
  const { options } = ctx;
  const display = { quotaPerUnit: options.get('QuotaPerUnit'), displayInCurrency: options.get('DisplayInCurrencyEnabled') };
  // Whole numbers of quota at least 0 (options/rules.ts).
  const forNewUser = options.get('QuotaForNewUser');
  const forInvitee = options.get('QuotaForInvitee');
  const forInviter = options.get('QuotaForInviter');
  if ((await usernameTaken(trx, account.username)) || (await emailTaken(trx, account.email))) throw fail(MSG.taken);
  const inviter = account.inviterCode ? await findUserByAffCode(trx, account.inviterCode) : undefined;
  const id = await insertUser(trx, {
    ...account.binding,
    username: account.username,
    password: account.passwordHash,
    display_name: account.displayName,
    email: account.email,
    aff_code: account.affCode,
    quota: forNewUser,
    inviter_id: inviter?.id ?? 0,
  });
  await account.claim?.(trx);
  const log = (userId: number, username: string, content: string) =>
    recordLog(trx, { userId, username, type: LOG_TYPE.SYSTEM, content });
  if (forNewUser > 0) await log(id, account.username, `新用户注册赠送 ${logQuota(forNewUser, display)}`);
  if (inviter) {
    if (forInvitee > 0) {
      await addUserQuota(trx, id, forInvitee);
      await log(id, account.username, `使用邀请码赠送 ${logQuota(forInvitee, display)}`);
    }
    await creditInviter(trx, inviter.id, forInviter);
    if (forInviter > 0) await log(inviter.id, inviter.username, `邀请用户赠送 ${logQuota(forInviter, display)}`);
  }
  return id;
}

/**
 * Creates a common user with the starting quota and, when invited, the invite rewards; every write in one
 * transaction. Two sign-ups racing for one name (or drawing the same invite code) meet at the unique indexes;
 * the loser re-checks and either reports the name taken or draws another code.
 */
export async function createAccount(ctx: AppContext, account: NewAccount): Promise<number> {
  const db = ctx.db.kysely;
  const passwordHash = await hashPassword(account.password);
  for (let attempt = 1; ; attempt++) {
    const affCode = await freeAffCode(db);
    try {
      return await db.transaction().execute((trx) => insertAccount(ctx, trx, { ...account, passwordHash, affCode }));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (attempt >= 3) throw fail(MSG.taken);
    }
  }
}

/** Registration (after the captcha): the switches, the form rules, the email code, then the account. */
export interface RegisterInput {
  username?: string | null;
  password?: string | null;
  password2?: string | null;
  email?: string | null;
  verification_code?: string | null;
  aff_code?: string | null;
}

export async function register(ctx: AppContext, input: RegisterInput): Promise<void> {
  const { options } = ctx;
  if (!options.get('RegisterEnabled')) throw fail('管理员关闭了新用户注册');
  if (!options.get('PasswordRegisterEnabled')) throw fail('管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册');
  const username = input.username?.trim() ?? '';
  const password = input.password ?? '';
  checkUsername(username);
  checkPassword(password);
  if (input.password2 !== undefined && input.password2 !== null && input.password2 !== password) throw fail('两次输入的密码不一致');

  let email = '';
  let claim: NewAccount['claim'];
  if (options.get('EmailVerificationEnabled')) {
    email = input.email?.trim() ?? '';
    const code = input.verification_code?.trim() ?? '';
    if (!email || !code) throw fail('管理员开启了邮箱验证，请输入邮箱地址和验证码');
    if (length(email) > EMAIL_MAX || !(await ctx.emailCodes.check('verify', email, code))) throw fail(CODE_MSG.wrongCode);
    claim = async (trx) => {
      if (!(await ctx.emailCodes.take('verify', email, code, trx))) throw fail(CODE_MSG.wrongCode);
    };
  }
  await createAccount(ctx, { username, password, displayName: username, email, inviterCode: input.aff_code?.trim() ?? '', claim });
}

/** The caller's invite code, drawn on first request for accounts that have none. */
export async function inviteCode(db: Db, user: UserRow): Promise<string> {
  if (user.aff_code) return user.aff_code;
  for (let attempt = 1; ; attempt++) {
    try {
      // When a concurrent call set a code first, this one changes nothing and the re-read returns theirs.
      await setAffCodeIfEmpty(db, user.id, await freeAffCode(db));
      break;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
  return (await findUserById(db, user.id))!.aff_code;
}

/** A new system access token for the console API (`Authorization: <token>` + New-Api-User); replaces the old one. */
export async function issueAccessToken(db: Db, userId: number): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const token = randomAlphanumeric(ACCESS_TOKEN_LENGTH);
    try {
      await setAccessToken(db, userId, token);
      return token;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

export interface AdminUpdate {
  id: number;
  username?: string;
  display_name?: string | null;
  password?: string | null;
  group?: string;
  quota?: number;
  email?: string;
}

/**
 * An administrator's edit of an account; a quota change is logged with the change, in one transaction.
 * Returns the account as it is afterwards.
 */
export async function updateAccount(ctx: AppContext, actor: UserRow, input: AdminUpdate): Promise<UserRow> {
  const db = ctx.db.kysely;
  const username = input.username?.trim();
  if (username !== undefined) checkUsername(username);
  const displayName = input.display_name?.trim();
  if (displayName) checkDisplayName(displayName);
  const group = input.group?.trim();
  if (group !== undefined && !group) throw fail('分组不能为空');
  if (group !== undefined && length(group) > GROUP_MAX) throw fail(`分组名称长度不得大于 ${GROUP_MAX} 位！`);
  const email = input.email?.trim();
  if (email !== undefined && length(email) > EMAIL_MAX) throw fail('邮箱地址过长');
  if (input.quota !== undefined && input.quota < 0) throw fail('额度不能小于 0');
  const password = input.password ?? '';
  if (password) checkPassword(password);
  const passwordHash = password ? await hashPassword(password) : undefined;
  const display = {
    quotaPerUnit: ctx.options.get('QuotaPerUnit'),
    displayInCurrency: ctx.options.get('DisplayInCurrencyEnabled'),
  };

  const updated = await db.transaction().execute(async (trx) => {
    const target = await findUserById(trx, input.id);
    if (!target || target.deleted_at !== null) throw fail(MSG.notFound);
    if (!outranks(actor, target)) throw fail(MSG.noRightsUpdate);
    const changes: UserUpdate = {};
    if (username !== undefined && username !== target.username) {
      if (await usernameTaken(trx, username, target.id)) throw fail(MSG.taken);
      changes.username = username;
    }
    if (input.display_name !== undefined) changes.display_name = displayName || (username ?? target.username);
    if (group !== undefined) changes.group = group;
    if (email !== undefined) changes.email = email;
    if (passwordHash) changes.password = passwordHash;
    if (Object.keys(changes).length > 0) await updateUser(trx, target.id, changes);
    if (input.quota !== undefined && input.quota !== target.quota) {
      await setUserQuota(trx, target.id, input.quota);
      await recordLog(trx, {
        userId: target.id,
        username: changes.username ?? target.username,
        type: LOG_TYPE.MANAGE,
        content: `管理员将用户额度从 ${logQuota(target.quota, display)} 修改为 ${logQuota(input.quota, display)}`,
      });
    }
    return { ...target, ...changes, quota: input.quota ?? target.quota } as UserRow;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw fail(MSG.taken);
    throw err;
  });
  // The default-password warning looks at the account named root: keep it right after its password or name changes.
  if (updated.role >= ROLE.ROOT && (passwordHash || username !== undefined)) await ctx.accounts.refresh();
  return updated;
}

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete';

/** promote / demote / disable / enable / delete. Returns the account's status and role afterwards. */
export async function manageAccount(db: Db, actor: UserRow, id: number, action: ManageAction): Promise<{ status: number; role: number }> {
  const target = await findUserById(db, id);
  if (!target || target.deleted_at !== null) throw fail(MSG.notFound);
  if (!outranks(actor, target)) throw fail(MSG.noRightsUpdate);
  let { status, role } = target;
  switch (action) {
    case 'disable':
      if (target.role >= ROLE.ROOT) throw fail('无法禁用超级管理员用户');
      status = USER_STATUS.DISABLED;
      break;
    case 'enable':
      status = USER_STATUS.ENABLED;
      break;
    case 'delete':
      if (target.role >= ROLE.ROOT) throw fail('无法删除超级管理员用户');
      await softDeleteUser(db, target.id);
      return { status, role };
    case 'promote':
      if (actor.role < ROLE.ROOT) throw fail('普通管理员用户无法提升其他用户为管理员');
      if (target.role >= ROLE.ADMIN) throw fail('该用户已经是管理员');
      role = ROLE.ADMIN;
      break;
    case 'demote':
      if (target.role >= ROLE.ROOT) throw fail('无法降级超级管理员用户');
      if (target.role === ROLE.USER) throw fail('该用户已经是普通用户');
      role = ROLE.USER;
      break;
  }
  await updateUser(db, target.id, { status, role });
  // Re-enabling the account later must not bring back a session opened before the ban (a copied cookie).
  if (action === 'disable') await endSessions(db, target.id);
  return { status, role };
}
