import { USER_STATUS } from '@switchyard/shared';
import { fail } from '../../lib/errors.js';
import { randomAlphanumeric } from '../../lib/random.js';
import { hashPassword } from '../../auth/password.js';
import { freeAffCode, insertAccount, length } from '../accounts.js';
import { emailTaken, findUserById, isUniqueViolation, usernameTaken } from '../../store/users.js';
import { findUserByBinding, setBinding, withBindingLock } from '../../store/user-bindings.js';
const COLUMN = { github: 'github_id', wechat: 'wechat_id', telegram: 'telegram_id' };
export const OAUTH_MSG = {
    taken: { github: '该 GitHub 账户已被绑定', wechat: '该微信账号已被绑定', telegram: '该 Telegram 账户已被绑定' },
    notBound: '该 Telegram 账户未绑定',
    deregistered: '用户已注销',
    banned: '用户已被封禁',
    registerClosed: '管理员关闭了新用户注册',
};
const USERNAME_MAX = 12;
const DISPLAY_NAME_MAX = 20;
const RANDOM_PASSWORD_LENGTH = 32;
/** Refuses a deregistered or banned account. */
export function checkUsable(user) {
    if (user.deleted_at !== null)
        throw fail(OAUTH_MSG.deregistered);
    if (user.status !== USER_STATUS.ENABLED)
        throw fail(OAUTH_MSG.banned);
    return user;
}
/** The wanted name if free, else the name with _2.._9, else with a random tail: always at most 12 characters. */
export async function uniqueUsername(db, wanted) {
    const base = [...wanted.replace(/[^A-Za-z0-9_-]/g, '')].slice(0, USERNAME_MAX).join('') || 'user';
    const withTail = (tail) => base.slice(0, USERNAME_MAX - tail.length) + tail;
    const candidates = [base, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => withTail(`_${n}`))];
    for (const name of candidates)
        if (!(await usernameTaken(db, name)))
            return name;
    for (let i = 0; i < 10; i++) {
        const name = withTail(`_${randomAlphanumeric(4)}`);
        if (!(await usernameTaken(db, name)))
            return name;
    }
    throw new Error(`no free username like ${base}`);
}
async function createBound(ctx, trx, column, id, account) {
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
    return (await findUserById(trx, userId));
}
/**
 * The account bound to this id, when usable. An unknown id gets a new account when `newAccount` is given and
 * registration is open; without `newAccount` (Telegram) it is refused.
 */
export async function signInWith(ctx, method, id, newAccount) {
    const column = COLUMN[method];
    for (let attempt = 1;; attempt++) {
        try {
            const user = await withBindingLock(ctx.db.kysely, ctx.db.dialect, column, id, async (trx) => {
                const holder = await findUserByBinding(trx, column, id);
                if (holder)
                    return holder;
                if (!newAccount)
                    throw fail(OAUTH_MSG.notBound);
                if (!ctx.options.get('RegisterEnabled'))
                    throw fail(OAUTH_MSG.registerClosed);
                return createBound(ctx, trx, column, id, newAccount);
            });
            return checkUsable(user);
        }
        catch (err) {
            // Another sign-up took the chosen name or invite code between the check and the insert: choose again.
            if (!isUniqueViolation(err) || attempt >= 3)
                throw err;
        }
    }
}
/** Binds the id to this account (replacing the account's earlier one), unless another account holds it. */
export async function bindTo(ctx, method, user, id) {
    const column = COLUMN[method];
    await withBindingLock(ctx.db.kysely, ctx.db.dialect, column, id, async (trx) => {
        const holder = await findUserByBinding(trx, column, id);
        if (holder && holder.id !== user.id)
            throw fail(OAUTH_MSG.taken[method]);
        const current = await findUserById(trx, user.id);
        if (!current)
            throw fail(OAUTH_MSG.deregistered);
        checkUsable(current);
        if (!holder)
            await setBinding(trx, user.id, column, id);
    });
}
//# sourceMappingURL=sign-in.js.map