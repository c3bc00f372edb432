import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { nowSeconds } from '../../lib/time.js';
import { randomHex } from '../../lib/random.js';

/*
 * Codes and links mailed to users: the 6-digit code of /api/verification (registration, binding an email) and the
 * token of a password-reset link. One live code per purpose and address, kept in the database or Redis (sql.ts,
 * redis.ts) so any node can check a code another node sent and a restart loses none. A code is good for
 * CODE_TTL_SECONDS and for one use; a new one for the same address is refused within RESEND_GAP_SECONDS (the
 * console's resend timer, enforced here too); MAX_ATTEMPTS wrong guesses void it, so six digits cannot be walked
 * through. One client address may have SENDS_PER_WINDOW mails sent per SEND_WINDOW_SECONDS, whatever the addresses,
 * so the gateway cannot be used to flood mailboxes or burn its SMTP account's reputation.
 */

/** 'verify': the code of /api/verification; 'reset': the token of a password-reset link. */
export type CodePurpose = 'verify' | 'reset';

export const CODE_MSG = {
  wrongCode: '验证码错误或已过期',
  wrongLink: '重置链接非法或已过期',
} as const;

export const CODE_TTL_SECONDS = 10 * 60;
export const RESEND_GAP_SECONDS = 30;
export const MAX_ATTEMPTS = 5;
/** The established gateway's "critical" budget (20 per 20 minutes per client address), applied to mails sent. */
export const SENDS_PER_WINDOW = 20;
export const SEND_WINDOW_SECONDS = 20 * 60;

/** Where codes are kept. `now` is unix seconds; addresses arrive normalised. */
export interface CodeBackend {
  /** Stores a code unless a live one was issued within `gapSeconds`; false when refused for that. */
  put(purpose: CodePurpose, address: string, code: string, now: number, ttlSeconds: number, gapSeconds: number): Promise<boolean>;
  /**
   * Whether `code` is the live one, without using it up. A wrong code counts an attempt; the code is voided once
   * maxAttempts are spent (null: wrong codes are not counted).
   */
  check(purpose: CodePurpose, address: string, code: string, now: number, maxAttempts: number | null): Promise<boolean>;
  /**
   * Uses the code up: true for exactly one caller when it is the live one. `trx` lets a database backend do it in
   * the transaction of the action the code allows (rolled back with it).
   */
  take(purpose: CodePurpose, address: string, code: string, now: number, trx?: Kysely<Database>): Promise<boolean>;
  /** Seconds until a new code may be sent to the address (0: now). */
  wait(purpose: CodePurpose, address: string, now: number, gapSeconds: number): Promise<number>;
  /** Counts one more mail for the client address and returns how many it had within the window, this one included. */
  countSend(client: string, now: number, windowSeconds: number): Promise<number>;
  /** Deletes expired codes and send counts older than `sendWindowSeconds`; how many codes (a store that expires by itself returns 0). */
  expire(now: number, sendWindowSeconds: number): Promise<number>;
  close(): Promise<void>;
}

/** Addresses compare without case or surrounding spaces. */
export const normaliseAddress = (address: string): string => address.trim().toLowerCase();

export const newVerificationCode = (): string => String(randomInt(1_000_000)).padStart(6, '0');
export const newResetToken = (): string => randomHex(16);

export type IssueResult = { sent: true; code: string } | { sent: false; waitSeconds: number };

export class EmailCodes {
  constructor(
    private readonly backend: CodeBackend,
    private readonly now: () => number = nowSeconds,
  ) {}

  /** Whether the client address may have another mail sent now; counts it when it may. */
  async admitSender(client: string): Promise<boolean> {
    return (await this.backend.countSend(client, this.now(), SEND_WINDOW_SECONDS)) <= SENDS_PER_WINDOW;
  }

  /** A fresh code for the address, or how long to wait when one was sent within the resend gap. */
  async issue(purpose: CodePurpose, address: string, code = purpose === 'reset' ? newResetToken() : newVerificationCode()): Promise<IssueResult> {
    const key = normaliseAddress(address);
    const now = this.now();
    if (await this.backend.put(purpose, key, code, now, CODE_TTL_SECONDS, RESEND_GAP_SECONDS)) return { sent: true, code };
    return { sent: false, waitSeconds: Math.max(1, await this.backend.wait(purpose, key, now, RESEND_GAP_SECONDS)) };
  }

  /** Forgets an issued code (its mail could not be sent), so the address may ask again at once. */
  async withdraw(purpose: CodePurpose, address: string, code: string): Promise<void> {
    await this.backend.take(purpose, normaliseAddress(address), code, this.now());
  }

  /**
   * Whether the code is live, without using it up. Wrong guesses void a 6-digit code after MAX_ATTEMPTS; a reset
   * token (128 bits) cannot be guessed, and counting against it would let anyone who knows an address void its link.
   */
  check(purpose: CodePurpose, address: string, code: string): Promise<boolean> {
    if (!code) return Promise.resolve(false);
    const attempts = purpose === 'verify' ? MAX_ATTEMPTS : null;
    return this.backend.check(purpose, normaliseAddress(address), code, this.now(), attempts);
  }

  take(purpose: CodePurpose, address: string, code: string, trx?: Kysely<Database>): Promise<boolean> {
    if (!code) return Promise.resolve(false);
    return this.backend.take(purpose, normaliseAddress(address), code, this.now(), trx);
  }

  expire(): Promise<number> {
    return this.backend.expire(this.now(), SEND_WINDOW_SECONDS);
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}
