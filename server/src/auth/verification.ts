import { timingSafeEqual } from 'node:crypto';
import { randomAlphanumeric } from '../lib/random.js';

/** What a code was issued for; a code for one purpose never satisfies another. */
export type CodePurpose = 'register' | 'password_reset' | 'email_bind';

/** Codes live 10 minutes, as users of established gateways expect. */
export const CODE_TTL_SECONDS = 10 * 60;
const CODE_LENGTH = 6;

interface Entry {
  code: string;
  expiresAt: number;
}

/**
 * Short-lived codes mailed to users (email verification, password reset), kept in process memory.
 * One node only: with several nodes the code must be checked on the node that sent it (sticky routing),
 * or this moves to Redis.
 */
export class CodeStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = () => Date.now() / 1000) {}

  private static key(purpose: CodePurpose, address: string): string {
    return `${purpose}:${address.trim().toLowerCase()}`;
  }

  /** Issues a fresh code for the address (replacing an earlier one) and returns it. */
  issue(purpose: CodePurpose, address: string, code = randomAlphanumeric(CODE_LENGTH)): string {
    this.sweep();
    this.entries.set(CodeStore.key(purpose, address), { code, expiresAt: this.now() + CODE_TTL_SECONDS });
    return code;
  }

  /** Whether the code is the live one for the address. Does not use it up: see consume. */
  verify(purpose: CodePurpose, address: string, code: string): boolean {
    const entry = this.entries.get(CodeStore.key(purpose, address));
    if (!entry || !code) return false;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(CodeStore.key(purpose, address));
      return false;
    }
    const a = Buffer.from(entry.code);
    const b = Buffer.from(code);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Drops the address's code once the action it allowed has succeeded. */
  consume(purpose: CodePurpose, address: string): void {
    this.entries.delete(CodeStore.key(purpose, address));
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

/** The process-wide store the email endpoints issue into and registration / reset check against. */
export const verificationCodes = new CodeStore();
