import { expect } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AppContext } from '../context.js';
import { insertUser } from '../store/users.js';
import { insertToken } from '../store/tokens.js';

/*
 * The books of one account (a user with one token) and the channels its calls used, read straight from the
 * database: whatever happened to the calls, the consume logs must add up to exactly what left the balances and
 * what the channels were credited, and nothing reserved may be left behind.
 */

export interface Account {
  userId: number;
  tokenId: number;
  /** The key as clients send it (sk-...). */
  key: string;
  limited: boolean;
  initialQuota: number;
  initialTokenQuota: number;
}

export interface AccountOptions {
  quota: number;
  /** A limited token with this remain_quota; unlimited when absent. */
  tokenQuota?: number;
}

let seq = 0;

/** A user and one token, written directly in the store (no password hashing per account). */
export async function openAccount(db: Kysely<Database>, o: AccountOptions): Promise<Account> {
  const name = `acct${process.pid}x${++seq}`;
  const userId = await insertUser(db, { username: name, password: 'x', aff_code: name, quota: o.quota });
  const limited = o.tokenQuota !== undefined;
  const token = await insertToken(db, {
    user_id: userId,
    name: 't',
    status: 1,
    expired_time: -1,
    remain_quota: o.tokenQuota ?? 0,
    unlimited_quota: !limited,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    group: '',
  });
  return { userId, tokenId: token.id, key: `sk-${token.key}`, limited, initialQuota: o.quota, initialTokenQuota: o.tokenQuota ?? 0 };
}

export interface Books {
  quota: number;
  usedQuota: number;
  requestCount: number;
  tokenRemain: number;
  tokenUsed: number;
  /** used_quota summed over the channels given (absent when the channels are shared with other accounts). */
  channelsUsed?: number;
  logSum: number;
  logCount: number;
}

/** The account's books; with `channelIds`, the channels only this account used (their used quota is checked too). */
export async function booksOf(db: Kysely<Database>, a: Account, channelIds?: readonly number[]): Promise<Books> {
  const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', a.userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', a.tokenId).executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select([sql<number>`coalesce(sum(quota), 0)`.as('sum'), sql<number>`count(*)`.as('count')])
    .where('user_id', '=', a.userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  return {
    quota: user.quota,
    usedQuota: user.used_quota,
    requestCount: user.request_count,
    tokenRemain: token.remain_quota,
    tokenUsed: token.used_quota,
    channelsUsed: channelIds ? await channelsUsed(db, channelIds) : undefined,
    logSum: Number(logs.sum),
    logCount: Number(logs.count),
  };
}

/** used_quota summed over some channels. */
export async function channelsUsed(db: Kysely<Database>, channelIds: readonly number[]): Promise<number> {
  if (channelIds.length === 0) return 0;
  const row = await db.selectFrom('channels').select(sql<number>`coalesce(sum(used_quota), 0)`.as('used')).where('id', 'in', [...channelIds]).executeTakeFirstOrThrow();
  return Number(row.used);
}

/**
 * The account's books balance to the unit: the consume logs' sum is what left the user (and a limited token), what
 * the user's and token's used quota rose by, and what the channels were credited; every settled call counts one
 * request. The account started with no logs, so nothing reserved is left behind either.
 */
export function expectBalanced(a: Account, b: Books): void {
  const summary = JSON.stringify(b);
  expect(a.initialQuota - b.quota, `user quota drop = logged sum (${summary})`).toBe(b.logSum);
  expect(b.usedQuota, `user used quota = logged sum (${summary})`).toBe(b.logSum);
  expect(b.tokenUsed, `token used quota = logged sum (${summary})`).toBe(b.logSum);
  if (a.limited) expect(a.initialTokenQuota - b.tokenRemain, `token remain drop = logged sum (${summary})`).toBe(b.logSum);
  else expect(b.tokenRemain).toBe(a.initialTokenQuota);
  if (b.channelsUsed !== undefined) expect(b.channelsUsed, `channels credited = logged sum (${summary})`).toBe(b.logSum);
  expect(b.requestCount, `one request per consume log (${summary})`).toBe(b.logCount);
}

/**
 * Waits until this node has no relay call in flight nor waiting for balance, then writes what is pending (again and
 * again while the database refuses it, until `timeoutMs`).
 */
export async function quiesce(ctx: AppContext, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (ctx.relay.calls.size > 0 || ctx.relay.quotaGate.waitingCalls > 0) {
    if (Date.now() > deadline) throw new Error(`relay calls still in flight after ${timeoutMs} ms: ${ctx.relay.calls.size}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  for (;;) {
    await ctx.relay.settler.flush();
    if (ctx.relay.settler.pending === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(ctx.relay.settler.pending).toBe(0);
}
