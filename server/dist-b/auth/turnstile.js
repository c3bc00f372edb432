import { fail } from '../lib/errors.js';
import { nowSeconds } from '../lib/time.js';
/*
 * Cloudflare Turnstile before sign-in, registration and the mails (when TurnstileCheckEnabled). The browser's token
 * (`?turnstile=`) is checked at Cloudflare's siteverify; once one passed, a signed, httpOnly cookie of its own (not
 * the login session's) spares the browser further checks for the rest of its session, as the established gateway
 * does. The cookie carries its own end (PASS_SECONDS) so a copied one cannot be replayed for ever.
 */
export const TURNSTILE_COOKIE = 'turnstile';
const PASS_SECONDS = 24 * 3600;
const VERIFY_TIMEOUT_MS = 10_000;
export const TURNSTILE_MSG = {
    missing: '请稍后几秒重试，Turnstile 正在检查用户环境！',
    refused: 'Turnstile 校验失败，请刷新重试！',
    unreachable: '无法完成 Turnstile 校验，请稍后重试',
};
function passed(request) {
    const raw = request.cookies[TURNSTILE_COOKIE];
    if (!raw)
        return false;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value)
        return false;
    const until = Number(unsigned.value.replace(/^ok\./, ''));
    return Number.isInteger(until) && until > nowSeconds();
}
/** Cloudflare's answer for the token: true when it passed. Throws (the unreachable message) when there is none. */
async function siteverify(ctx, token, remoteIp) {
    const body = new URLSearchParams({ secret: ctx.options.get('TurnstileSecretKey'), response: token, remoteip: remoteIp });
    try {
        const res = await fetch(ctx.config.turnstileVerifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
        const answer = (await res.json());
        if (answer.success !== true)
            ctx.log.info({ errors: answer['error-codes'] }, 'Turnstile refused a token');
        return answer.success === true;
    }
    catch (err) {
        ctx.log.warn({ err }, 'Turnstile siteverify could not be reached');
        throw fail(TURNSTILE_MSG.unreachable);
    }
}
/** Refuses the request unless the captcha is off, this browser passed it already, or its token passes now. */
export async function requireTurnstile(ctx, request, reply) {
    if (!ctx.options.get('TurnstileCheckEnabled') || passed(request))
        return;
    const token = request.query?.turnstile;
    if (typeof token !== 'string' || !token.trim())
        throw fail(TURNSTILE_MSG.missing);
    if (!(await siteverify(ctx, token.trim(), request.ip)))
        throw fail(TURNSTILE_MSG.refused);
    reply.setCookie(TURNSTILE_COOKIE, `ok.${nowSeconds() + PASS_SECONDS}`, {
        signed: true,
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.config.sessionCookieSecure,
        path: '/api',
    });
}
//# sourceMappingURL=turnstile.js.map