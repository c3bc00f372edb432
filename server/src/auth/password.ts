import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * scrypt from node:crypto. Stored as scrypt$N$r$p$salt$hash (base64) so parameters can be raised later
 * while old hashes still verify.
 *
 * N = 2^15, r = 8 takes 32 MiB per hash (128 x N x r bytes), and that size matters beyond security: glibc hands
 * out allocations under 32 MiB from the hashing thread's malloc arena after the first one is freed (its mmap
 * threshold rises to the largest freed block), and an arena keeps that memory for good. With 16 MiB (N = 2^14)
 * every thread of the pool that ever hashed a password held 16 MiB more for the life of the process (measured:
 * six parallel logins took the server from 143 to 209 MB). A block over 32 MiB is always mapped on its own and
 * returned when the hash is done.
 */
const PARAMS = { N: 32768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/** Verified in place of a missing user's hash, so an unknown name costs what a wrong password does. */
export const UNKNOWN_USER_HASH = ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, 'AAAAAAAAAAAAAAAAAAAAAA==', 'A'.repeat(43) + '='].join('$');

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Memory allowed for a hash: what its parameters need (128 x N x r), up to a ceiling no stored hash can pass. */
function maxmemFor(cost: { N: number; r: number }): number {
  return Math.min(256 * 1024 * 1024, 128 * cost.N * cost.r + 1024 * 1024);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: maxmemFor(PARAMS) });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** bcrypt hashes ($2a$/$2b$/$2y$) come from databases imported from other gateways (import/). */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** True for a stored hash that verifies but is not ours: replace it with hashPassword's after a successful login. */
export const needsRehash = (stored: string): boolean => BCRYPT.test(stored);

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  // Loaded only for such a hash: most deployments never have one.
  if (BCRYPT.test(stored)) return (await import('bcryptjs')).default.compare(password, stored);
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts;
  const expected = Buffer.from(keyB64, 'base64');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, { ...cost, maxmem: maxmemFor(cost) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
