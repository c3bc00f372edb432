import type { ImportContext } from './table-import.js';

/*
 * Values an incumbent's database may hold that Switchyard must not take as they are: they would grant what nobody
 * meant to grant (a role above super admin, an unknown status the relay reads as "not disabled"), fail the whole
 * import on a database whose integer column cannot hold them (9223372036854775807 read back as a float is 2^63),
 * or let a key be guessed. Each is repaired on its way in and counted in the summary with the reason.
 */

/** The largest amount a JavaScript number holds exactly; quota arithmetic here is on numbers. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/** The shortest key either incumbent ever generated (one-api: a UUID without dashes). */
export const MIN_KEY_LENGTH = 32;

function readNumber(v: unknown): number {
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = typeof v === 'number' ? v : Number(typeof v === 'bigint' ? v : String(v).trim());
  return Number.isNaN(n) ? 0 : n;
}

/** A whole amount within ±MAX_AMOUNT; `floor` 0 for balances and counters, which are never below zero. */
function amountOf(v: unknown, column: string, ctx: ImportContext, floor: number): number {
  let n = readNumber(v);
  if (n > MAX_AMOUNT) {
    ctx.note(`${column} above ${MAX_AMOUNT} (too large to count exactly) lowered to it`);
    return MAX_AMOUNT;
  }
  if (n < floor) {
    ctx.note(floor === 0 ? `${column} below 0 raised to 0` : `${column} below -${MAX_AMOUNT} raised to it`);
    return floor;
  }
  if (!Number.isInteger(n)) {
    ctx.note(`${column} not a whole number: the fraction dropped`);
    n = Math.trunc(n);
  }
  return n;
}

/** A balance or a counter (quota, remain_quota, used_quota, request_count ...): a whole number, 0 to MAX_AMOUNT. */
export function balance(v: unknown, column: string, ctx: ImportContext): number {
  return amountOf(v, column, ctx, 0);
}

/** An amount in a record of the past (a log's quota, which a refund makes negative): a whole number within ±MAX_AMOUNT. */
export function recordedAmount(v: unknown, column: string, ctx: ImportContext): number {
  return amountOf(v, column, ctx, -MAX_AMOUNT);
}

/** A code from a closed set (role, status): anything else becomes `fallback`, the value that grants the least. */
export function knownCode(v: unknown, allowed: readonly number[], fallback: number, what: string, ctx: ImportContext): number {
  const n = readNumber(v);
  if (allowed.includes(n)) return n;
  ctx.note(`${what} ${String(v)} is not one of ${allowed.join(', ')}: imported as ${fallback}`);
  return fallback;
}

/**
 * Whether a token key can stay: long enough not to be guessed, and only letters and digits (a key is presented as
 * sk-KEY-CHANNEL, so a dash or a blank in it could never be sent; an empty key would match "sk--1").
 */
export function keptKey(key: string): boolean {
  return key.length >= MIN_KEY_LENGTH && /^[A-Za-z0-9]+$/.test(key);
}
