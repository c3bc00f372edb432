import { createHash } from 'node:crypto';
export const SESSION_COOKIE = 'session';
const MAX_AGE_SECONDS = 30 * 24 * 3600;
/** Ties a session to the password it was opened with: changing the password ends every other session. */
function passwordFingerprint(user) {
    return createHash('sha256').update(user.password).digest('hex').slice(0, 16);
}
export function openSession(reply, user, secure) {
    const expiresAt = Math.floor(Date.now() / 1000) + MAX_AGE_SECONDS;
    const value = `${user.id}.${expiresAt}.${passwordFingerprint(user)}`;
    reply.setCookie(SESSION_COOKIE, value, {
        signed: true,
        httpOnly: true,
        sameSite: 'strict',
        secure,
        path: '/',
        maxAge: MAX_AGE_SECONDS,
    });
}
export function closeSession(reply) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
/** The claims of a validly signed, unexpired session cookie, or null. */
export function readSession(request) {
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw)
        return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value)
        return null;
    const [id, exp, fingerprint] = unsigned.value.split('.');
    const userId = Number(id);
    const expiresAt = Number(exp);
    if (!Number.isInteger(userId) || !Number.isInteger(expiresAt) || !fingerprint)
        return null;
    if (expiresAt < Date.now() / 1000)
        return null;
    return { userId, expiresAt, fingerprint };
}
export function sessionMatches(claims, user) {
    return claims.fingerprint === passwordFingerprint(user);
}
//# sourceMappingURL=session.js.map