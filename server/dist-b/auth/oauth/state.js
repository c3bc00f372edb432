import { randomAlphanumeric } from '../../lib/random.js';
/*
 * The OAuth state of one sign-in attempt, bound to the browser that started it: a signed, httpOnly cookie of its
 * own (the login session cookie is left as it is), sent only to /api/oauth and living ten minutes. It also carries
 * the invite code the visitor arrived with, so an account GitHub creates gets the inviter's reward.
 */
export const OAUTH_STATE_COOKIE = 'oauth_state';
const COOKIE_PATH = '/api/oauth';
const MAX_AGE_SECONDS = 10 * 60;
const STATE_LENGTH = 32;
/** Invite codes the server draws are 4 letters and digits; anything else cannot be one. */
export const AFF_CODE = /^[A-Za-z0-9]{1,32}$/;
export function issueOAuthState(reply, aff, secure) {
    const state = randomAlphanumeric(STATE_LENGTH);
    reply.setCookie(OAUTH_STATE_COOKIE, `${state}.${aff}`, {
        signed: true,
        httpOnly: true,
        sameSite: 'strict',
        secure,
        path: COOKIE_PATH,
        maxAge: MAX_AGE_SECONDS,
    });
    return state;
}
/** The state this browser was given, when its cookie is present, validly signed and well formed. */
export function readOAuthState(request) {
    const raw = request.cookies[OAUTH_STATE_COOKIE];
    if (!raw)
        return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value)
        return null;
    const [state, aff = '', ...rest] = unsigned.value.split('.');
    if (rest.length > 0 || state.length !== STATE_LENGTH || (aff !== '' && !AFF_CODE.test(aff)))
        return null;
    return { state, aff };
}
/** A state is good for one sign-in: spent once it has been used. */
export function clearOAuthState(reply) {
    reply.clearCookie(OAUTH_STATE_COOKIE, { path: COOKIE_PATH });
}
//# sourceMappingURL=state.js.map