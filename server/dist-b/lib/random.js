import { randomBytes, randomInt } from 'node:crypto';
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A string of `length` characters from [a-zA-Z0-9], each drawn from a cryptographic source without modulo bias. */
export function randomAlphanumeric(length) {
    let out = '';
    for (let i = 0; i < length; i++)
        out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
    return out;
}
export const randomHex = (bytes) => randomBytes(bytes).toString('hex');
//# sourceMappingURL=random.js.map