import type { Kysely } from 'kysely';
import type { Database, TokenRow, UserRow } from '../db/schema.js';
import type { Bus } from './bus.js';

/*
 * Tokens and users as the relay sees them, from memory. Entries live for a short time and are dropped at once when
 * the console changes them (here and, through the bus, on other nodes). Balances in these rows are only hints:
 * money is moved by conditional updates in the database (store/quota.ts).
 */

interface Entry<T> {
  value: T | undefined;
  expires: number;
  /** The balance was lowered here (noteCharge) since the row was read: a hint, never grounds for a refusal. */
  hinted?: boolean;
}

/** What cachedToken / cachedUser answer when the cache does not know (the async lookups then ask the database). */
export const NOT_CACHED = Symbol('not cached');

const TOKEN_TOPIC = 'token';
const TOKENS_OF_USER_TOPIC = 'tokens-of-user';
const USER_TOPIC = 'user';

export class AuthCache {
  private readonly tokens = new Map<string, Entry<TokenRow>>();
  private readonly users = new Map<number, Entry<UserRow>>();
  /**
   * Counts the changes dropped from this cache. A database read that was under way when a change came may hold the
   * row as it was before: it is not kept when a change came meanwhile.
   */
  private changes = 0;
  /** Token reads under way to confirm a hinted balance, one per key. */
  private readonly confirming = new Map<string, Promise<TokenRow | undefined>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly bus: Bus,
    private readonly ttlMs: number,
  ) {
    bus.subscribe(TOKEN_TOPIC, (key) => this.dropToken(key));
    bus.subscribe(USER_TOPIC, (id) => this.dropUser(Number(id)));
    bus.subscribe(TOKENS_OF_USER_TOPIC, (id) => this.dropTokensOf(Number(id)));
  }

  /** The token from memory without waiting (undefined: known not to exist), or NOT_CACHED. */
  cachedToken(key: string): TokenRow | undefined | typeof NOT_CACHED {
    const hit = this.tokens.get(key);
    return hit && hit.expires > Date.now() ? hit.value : NOT_CACHED;
  }

  /** The user from memory without waiting (undefined: known not to exist), or NOT_CACHED. */
  cachedUser(id: number): UserRow | undefined | typeof NOT_CACHED {
    const hit = this.users.get(id);
    return hit && hit.expires > Date.now() ? hit.value : NOT_CACHED;
  }

  async token(key: string): Promise<TokenRow | undefined> {
    const hit = this.tokens.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    return this.readToken(key);
  }

  /**
   * The token as the database has it, when `cached` is this cache's row and its balance was lowered here since it
   * was read; otherwise `cached` itself. A lowered balance can count a call twice: a row read while a call's
   * reservation was being written already lacks that reservation, and the call then notes its estimate on it too.
   * So the relay confirms a balance that looks spent before refusing on it. One read per key at a time.
   */
  confirmedToken(key: string, cached: TokenRow): TokenRow | Promise<TokenRow | undefined> {
    const hit = this.tokens.get(key);
    if (!hit?.hinted || hit.value !== cached) return cached;
    let reading = this.confirming.get(key);
    if (!reading) {
      reading = this.readToken(key).finally(() => this.confirming.delete(key));
      this.confirming.set(key, reading);
    }
    return reading;
  }

  private async readToken(key: string): Promise<TokenRow | undefined> {
    const now = Date.now();
    const before = this.changes;
    const value = await this.db.selectFrom('tokens').selectAll().where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
    // Unknown keys are remembered briefly too, so a flood of bad keys does not reach the database each time.
    if (this.changes === before) this.tokens.set(key, { value, expires: now + (value ? this.ttlMs : Math.min(this.ttlMs, 5000)) });
    return value;
  }

  async user(id: number): Promise<UserRow | undefined> {
    const now = Date.now();
    const hit = this.users.get(id);
    if (hit && hit.expires > now) return hit.value;
    const before = this.changes;
    const value = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (this.changes === before) this.users.set(id, { value, expires: now + this.ttlMs });
    return value;
  }

  /*
   * After a console change: dropped here at once, and the returned promise resolves once the node's other workers
   * have dropped it too (cluster/ipc-bus.ts) and Redis has taken the message for the other nodes. The console awaits
   * it before it answers, so a call sent on the answer is judged on the change.
   */

  /** After the console changed a token (status, quota, limits, deletion). */
  forgetToken(key: string): Promise<void> {
    this.dropToken(key);
    return this.bus.publish(TOKEN_TOPIC, key);
  }

  /** After the console changed any token of a user. */
  forgetTokensOf(userId: number): Promise<void> {
    this.dropTokensOf(userId);
    return this.bus.publish(TOKENS_OF_USER_TOPIC, String(userId));
  }

  /** After the console changed a user (status, role, group, quota, deletion). */
  forgetUser(id: number): Promise<void> {
    this.dropUser(id);
    return this.bus.publish(USER_TOPIC, String(id));
  }

  private dropToken(key: string): void {
    this.changes++;
    this.tokens.delete(key);
  }

  private dropTokensOf(userId: number): void {
    this.changes++;
    for (const [key, entry] of this.tokens) if (entry.value?.user_id === userId) this.tokens.delete(key);
  }

  private dropUser(id: number): void {
    this.changes++;
    this.users.delete(id);
  }

  /** Local bookkeeping after a charge, so the next check on this node sees a closer balance. */
  noteCharge(tokenKey: string, userId: number, quota: number): void {
    const hit = this.tokens.get(tokenKey);
    const t = hit?.value;
    if (t && !t.unlimited_quota) {
      t.remain_quota -= quota;
      if (quota > 0) hit.hinted = true;
    }
    const u = this.users.get(userId)?.value;
    if (u) u.quota -= quota;
  }
}
