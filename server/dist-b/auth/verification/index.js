import { randomInt } from 'node:crypto';
import { nowSeconds } from '../../lib/time.js';
import { randomHex } from '../../lib/random.js';
export const CODE_MSG = {
    wrongCode: '验证码错误或已过期',
    wrongLink: '重置链接非法或已过期',
};
export const CODE_TTL_SECONDS = 10 * 60;
export const RESEND_GAP_SECONDS = 30;
export const MAX_ATTEMPTS = 5;
/** The established gateway's "critical" budget (20 per 20 minutes per client address), applied to mails sent. */
export const SENDS_PER_WINDOW = 20;
export const SEND_WINDOW_SECONDS = 20 * 60;
/** Addresses compare without case or surrounding spaces. */
export const normaliseAddress = (address) => address.trim().toLowerCase();
export const newVerificationCode = () => String(randomInt(1_000_000)).padStart(6, '0');
export const newResetToken = () => randomHex(16);
export class EmailCodes {
    backend;
    now;
    constructor(backend, now = nowSeconds) {
        this.backend = backend;
        this.now = now;
    }
    /** Whether the client address may have another mail sent now; counts it when it may. */
    async admitSender(client) {
        return (await this.backend.countSend(client, this.now(), SEND_WINDOW_SECONDS)) <= SENDS_PER_WINDOW;
    }
    /** A fresh code for the address, or how long to wait when one was sent within the resend gap. */
    async issue(purpose, address, code = purpose === 'reset' ? newResetToken() : newVerificationCode()) {
        const key = normaliseAddress(address);
        const now = this.now();
        if (await this.backend.put(purpose, key, code, now, CODE_TTL_SECONDS, RESEND_GAP_SECONDS))
            return { sent: true, code };
        return { sent: false, waitSeconds: Math.max(1, await this.backend.wait(purpose, key, now, RESEND_GAP_SECONDS)) };
    }
    /** Forgets an issued code (its mail could not be sent), so the address may ask again at once. */
    async withdraw(purpose, address, code) {
        await this.backend.take(purpose, normaliseAddress(address), code, this.now());
    }
    /**
     * Whether the code is live, without using it up. Wrong guesses void a 6-digit code after MAX_ATTEMPTS; a reset
     * token (128 bits) cannot be guessed, and counting against it would let anyone who knows an address void its link.
     */
    check(purpose, address, code) {
        if (!code)
            return Promise.resolve(false);
        const attempts = purpose === 'verify' ? MAX_ATTEMPTS : null;
        return this.backend.check(purpose, normaliseAddress(address), code, this.now(), attempts);
    }
    take(purpose, address, code, trx) {
        if (!code)
            return Promise.resolve(false);
        return this.backend.take(purpose, normaliseAddress(address), code, this.now(), trx);
    }
    expire() {
        return this.backend.expire(this.now(), SEND_WINDOW_SECONDS);
    }
    close() {
        return this.backend.close();
    }
}
//# sourceMappingURL=index.js.map