import { ROLE } from '@switchyard/shared';
import { fail } from '../lib/errors.js';
import { randomAlphanumeric } from '../lib/random.js';
import { hashPassword } from '../auth/password.js';
import { CODE_MSG } from '../auth/verification/index.js';
import { emailTaken, findUserByEmail, updateUser } from '../store/users.js';
import { passwordResetMail, verificationMail } from './mail/messages.js';
import { MAIL_MSG, sendMail, smtpSettings } from './mail/send.js';
/** What users do through their mailbox: get a code (registration, binding), reset a forgotten password, bind. */
export const EMAIL_MSG = {
    missing: '请输入邮箱！',
    missingCode: '请输入邮箱验证码！',
    malformed: '邮箱地址格式不正确',
    notWhitelisted: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    alias: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    taken: '邮箱地址已被占用',
    unregistered: '该邮箱地址未注册',
    badResetInput: '无效的参数',
    tooSoon: (seconds) => `发送过于频繁，请 ${seconds} 秒后再试`,
    tooMany: '发送邮件过于频繁，请稍后再试',
};
const EMAIL_MAX = 254;
const NEW_PASSWORD_LENGTH = 12;
const SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
/** The trimmed address, or a refusal when it is missing or not an address. */
export function emailAddress(input) {
    const email = input?.trim() ?? '';
    if (!email)
        throw fail(EMAIL_MSG.missing);
    if (email.length > EMAIL_MAX || !SHAPE.test(email))
        throw fail(EMAIL_MSG.malformed);
    return email;
}
/** The whitelist of domains and the alias rule (no `+` or `.` in the local part), when administrators turned them on. */
export function checkAddressRules(options, email) {
    const at = email.lastIndexOf('@');
    const local = email.slice(0, at);
    const domain = email.slice(at + 1).toLowerCase();
    if (options.get('EmailDomainRestrictionEnabled')) {
        const allowed = options
            .get('EmailDomainWhitelist')
            .split(',')
            .map((d) => d.trim().toLowerCase())
            .filter(Boolean);
        if (!allowed.includes(domain))
            throw fail(EMAIL_MSG.notWhitelisted);
    }
    if (options.get('EmailAliasRestrictionEnabled') && /[+.]/.test(local))
        throw fail(EMAIL_MSG.alias);
}
/** Where links in mails point: ServerAddress, else this server on localhost (never the request's Host header). */
function serverAddress(ctx) {
    return (ctx.options.get('ServerAddress').trim() || `http://localhost:${ctx.config.port}`).replace(/\/+$/, '');
}
/**
 * Issues a code and mails what `compose` makes of it. Too soon after the last one to the address, or past the
 * client's budget, is refused; when the mail cannot be sent the code is withdrawn, so the address may ask again at
 * once.
 */
async function mailCode(ctx, client, purpose, email, compose) {
    if (!smtpSettings(ctx.options))
        throw fail(MAIL_MSG.notConfigured);
    if (!(await ctx.emailCodes.admitSender(client)))
        throw fail(EMAIL_MSG.tooMany);
    const issued = await ctx.emailCodes.issue(purpose, email);
    if (!issued.sent)
        throw fail(EMAIL_MSG.tooSoon(issued.waitSeconds));
    try {
        await sendMail(ctx.options, compose(issued.code), ctx.log);
    }
    catch (err) {
        await ctx.emailCodes.withdraw(purpose, email, issued.code).catch(() => undefined);
        throw err;
    }
}
/** GET /api/verification: a 6-digit code for an address no account holds, allowed by the address rules. */
export async function sendVerificationCode(ctx, request) {
    const email = emailAddress(request.email);
    checkAddressRules(ctx.options, email);
    if (await emailTaken(ctx.db.kysely, email))
        throw fail(EMAIL_MSG.taken);
    const name = ctx.options.get('SystemName');
    await mailCode(ctx, request.client, 'verify', email, (code) => verificationMail(name, email, code));
}
/** GET /api/reset_password: mails `{ServerAddress}/user/reset?email=&token=` to an account's address. */
export async function sendPasswordReset(ctx, request) {
    const email = emailAddress(request.email);
    if (!(await findUserByEmail(ctx.db.kysely, email)))
        throw fail(EMAIL_MSG.unregistered);
    const name = ctx.options.get('SystemName');
    await mailCode(ctx, request.client, 'reset', email, (token) => {
        const link = `${serverAddress(ctx)}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
        return passwordResetMail(name, email, link);
    });
}
/** POST /api/user/reset: the link's token, once, sets a new random password, which is returned. */
export async function resetPassword(ctx, input) {
    const email = input.email?.trim() ?? '';
    const token = input.token?.trim() ?? '';
    if (!email || !token)
        throw fail(EMAIL_MSG.badResetInput);
    // Checked before the (deliberately slow) hash, so anonymous calls with made-up tokens cost nothing.
    if (!(await ctx.emailCodes.check('reset', email, token)))
        throw fail(CODE_MSG.wrongLink);
    const password = randomAlphanumeric(NEW_PASSWORD_LENGTH);
    const hash = await hashPassword(password);
    const user = await ctx.db.kysely.transaction().execute(async (trx) => {
        const found = await findUserByEmail(trx, email);
        if (!found || !(await ctx.emailCodes.take('reset', email, token, trx)))
            throw fail(CODE_MSG.wrongLink);
        await updateUser(trx, found.id, { password: hash });
        return found;
    });
    // The default-password warning watches root's password.
    if (user.role >= ROLE.ROOT)
        await ctx.accounts.refresh();
    return password;
}
/** GET /api/oauth/email/bind: the signed-in user takes an address proven by a code from /api/verification. */
export async function bindEmail(ctx, user, input) {
    if (!input.email?.trim())
        throw fail(EMAIL_MSG.missing);
    if (!input.code?.trim())
        throw fail(EMAIL_MSG.missingCode);
    const email = emailAddress(input.email);
    const code = input.code.trim();
    if (!(await ctx.emailCodes.check('verify', email, code)))
        throw fail(CODE_MSG.wrongCode);
    await ctx.db.kysely.transaction().execute(async (trx) => {
        if (await emailTaken(trx, email, user.id))
            throw fail(EMAIL_MSG.taken);
        if (!(await ctx.emailCodes.take('verify', email, code, trx)))
            throw fail(CODE_MSG.wrongCode);
        await updateUser(trx, user.id, { email });
    });
}
//# sourceMappingURL=email-accounts.js.map