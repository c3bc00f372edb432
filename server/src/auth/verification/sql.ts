import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../store/users.js';
import type { CodeBackend, CodePurpose } from './index.js';

/** Codes in the `email_codes` table (migration 007), shared by every node on the database. */
export class SqlCodeBackend implements CodeBackend {
  constructor(private readonly db: Kysely<Database>) {}

  private row(db: Kysely<Database>, purpose: CodePurpose, address: string) {
    return db.selectFrom('email_codes').selectAll().where('purpose', '=', purpose).where('address', '=', address).executeTakeFirst();
  }

  async put(purpose: CodePurpose, address: string, code: string, now: number, ttlSeconds: number, gapSeconds: number): Promise<boolean> {
    // Only a code older than the gap (or expired) makes room; a younger one makes the insert below collide.
    await this.db
      .deleteFrom('email_codes')
      .where('purpose', '=', purpose)
      .where('address', '=', address)
      .where((eb) => eb.or([eb('created_at', '<=', now - gapSeconds), eb('expires_at', '<=', now)]))
      .execute();
    try {
      await this.db
        .insertInto('email_codes')
        .values({ purpose, address, code, created_at: now, expires_at: now + ttlSeconds, attempts: 0 })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async check(purpose: CodePurpose, address: string, code: string, now: number, maxAttempts: number | null): Promise<boolean> {
    const row = await this.row(this.db, purpose, address);
    if (!row || Number(row.expires_at) <= now) return false;
    if (sameText(row.code, code)) return true;
    if (maxAttempts === null) return false;
    await this.db
      .updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('purpose', '=', purpose)
      .where('address', '=', address)
      .where('code', '=', row.code)
      .execute();
    await this.db
      .deleteFrom('email_codes')
      .where('purpose', '=', purpose)
      .where('address', '=', address)
      .where('attempts', '>=', maxAttempts)
      .execute();
    return false;
  }

  async take(purpose: CodePurpose, address: string, code: string, now: number, trx?: Kysely<Database>): Promise<boolean> {
    const db = trx ?? this.db;
    // Compared here, not by the database: MySQL's default collation would let a code match in another case.
    const row = await this.row(db, purpose, address);
    if (!row || Number(row.expires_at) <= now || !sameText(row.code, code)) return false;
    const res = await db
      .deleteFrom('email_codes')
      .where('purpose', '=', purpose)
      .where('address', '=', address)
      .where('code', '=', row.code)
      .where('created_at', '=', row.created_at)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async wait(purpose: CodePurpose, address: string, now: number, gapSeconds: number): Promise<number> {
    const row = await this.row(this.db, purpose, address);
    if (!row || Number(row.expires_at) <= now) return 0;
    return Math.max(0, Number(row.created_at) + gapSeconds - now);
  }

  async countSend(client: string, now: number, windowSeconds: number): Promise<number> {
    await this.db.insertInto('email_sends').values({ client, created_at: now }).execute();
    const row = await this.db
      .selectFrom('email_sends')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('client', '=', client)
      .where('created_at', '>', now - windowSeconds)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async expire(now: number, sendWindowSeconds: number): Promise<number> {
    await this.db.deleteFrom('email_sends').where('created_at', '<=', now - sendWindowSeconds).execute();
    const res = await this.db.deleteFrom('email_codes').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async close(): Promise<void> {}
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
