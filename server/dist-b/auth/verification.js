import { timingSafeEqual } from 'node:crypto';
import { randomAlphanumeric } from '../lib/random.js';
/** Codes live 10 minutes, as users of established gateways expect. */
export const CODE_TTL_SECONDS = 10 * 60;
const CODE_LENGTH = 6;
/**
 * Short-lived codes mailed to users (email verification, password reset), kept in process memory.
 * One node only: with several nodes the code must be checked on the node that sent it (sticky routing),
 * or this moves to Redis.
 */
export class CodeStore {
    now;
    entries = new Map();
    constructor(now = () => Date.now() / 1000) {
        this.now = now;
    }
    static key(purpose, address) {
        return `${purpose}:${address.trim().toLowerCase()}`;
    }
    /** Issues a fresh code for the address (replacing an earlier one) and returns it. */
    issue(purpose, address, code = randomAlphanumeric(CODE_LENGTH)) {
        this.sweep();
        this.entries.set(CodeStore.key(purpose, address), { code, expiresAt: this.now() + CODE_TTL_SECONDS });
        return code;
    }
    /** Whether the code is the live one for the address. Does not use it up: see consume. */
    verify(purpose, address, code) {
        const entry = this.entries.get(CodeStore.key(purpose, address));
        if (!entry || !code)
            return false;
        if (entry.expiresAt <= this.now()) {
            this.entries.delete(CodeStore.key(purpose, address));
            return false;
        }
        const a = Buffer.from(entry.code);
        const b = Buffer.from(code);
        return a.length === b.length && timingSafeEqual(a, b);
    }
    /** Drops the address's code once the action it allowed has succeeded. */
    consume(purpose, address) {
        this.entries.delete(CodeStore.key(purpose, address));
    }
    sweep() {
        const now = this.now();
        for (const [key, entry] of this.entries)
            if (entry.expiresAt <= now)
                this.entries.delete(key);
    }
}
/** The process-wide store the email endpoints issue into and registration / reset check against. */
export const verificationCodes = new CodeStore();
//# sourceMappingURL=verification.js.map