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
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** What every hash is made with, unless a test run chose TEST_COST. */
export const PRODUCTION_COST: Readonly<ScryptCost> = Object.freeze({ N: 32768, r: 8, p: 1 });
/**
 * For test runs only (useTestPasswordCost): 1 MiB and a millisecond instead of 32 MiB and ~100 ms, so suites that
 * sign in hundreds of times do not spend most of their time hashing. The stored hash names these parameters, so
 * such a hash that ever reached a production database still verifies and is replaced at its first login (needsRehash).
 */
export const TEST_COST: Readonly<ScryptCost> = Object.freeze({ N: 1024, r: 8, p: 1 });
const KEY_LENGTH = 32;

let cost: Readonly<ScryptCost> = PRODUCTION_COST;

/**
 * Makes hashPassword use TEST_COST in this process (the server test setup calls it). Refused outside a Vitest run and
 * whenever NODE_ENV=production, so no configuration can lower the cost of a running gateway. Processes a test
 * starts (server-process.ts, built-server.ts, the browser suite) never call it: they hash at PRODUCTION_COST.
 */
export function useTestPasswordCost(): void {
  if (process.env.NODE_ENV === 'production' || !process.env.VITEST) {
    throw new Error('the test password cost is only for test runs (VITEST set, NODE_ENV not production)');
  }
  cost = TEST_COST;
}

/** Back to PRODUCTION_COST (the password tests prove it). */
export function useProductionPasswordCost(): void {
  cost = PRODUCTION_COST;
}

/** Verified in place of a missing user's hash, so an unknown name costs what a wrong password does. */
export const unknownUserHash = (): string => ['scrypt', cost.N, cost.r, cost.p, 'AAAAAAAAAAAAAAAAAAAAAA==', 'A'.repeat(43) + '='].join('$');

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
  const { N, r, p } = cost;
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmemFor(cost) });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** bcrypt hashes ($2a$/$2b$/$2y$) come from databases imported from other gateways (import/). */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * True for a stored hash that verifies but is not what hashPassword makes now: bcrypt (imported), or scrypt with any
 * parameter below the current cost (earlier parameters, or TEST_COST). Replace it after a successful login.
 */
export function needsRehash(stored: string): boolean {
  if (BCRYPT.test(stored)) return true;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  return n < cost.N || r < cost.r || p < cost.p;
}

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
