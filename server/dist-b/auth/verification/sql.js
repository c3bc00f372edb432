import { timingSafeEqual } from 'node:crypto';
import { isUniqueViolation } from '../../store/users.js';
/** Codes in the `email_codes` table (migration 007), shared by every node on the database. */
export class SqlCodeBackend {
    db;
    constructor(db) {
        this.db = db;
    }
    row(db, purpose, address) {
        return db.selectFrom('email_codes').selectAll().where('purpose', '=', purpose).where('address', '=', address).executeTakeFirst();
    }
    async put(purpose, address, code, now, ttlSeconds, gapSeconds) {
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
        }
        catch (err) {
            if (isUniqueViolation(err))
                return false;
            throw err;
        }
    }
    async check(purpose, address, code, now, maxAttempts) {
        const row = await this.row(this.db, purpose, address);
        if (!row || Number(row.expires_at) <= now)
            return false;
        if (sameText(row.code, code))
            return true;
        if (maxAttempts === null)
            return false;
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
    async take(purpose, address, code, now, trx) {
        const db = trx ?? this.db;
        // Compared here, not by the database: MySQL's default collation would let a code match in another case.
        const row = await this.row(db, purpose, address);
        if (!row || Number(row.expires_at) <= now || !sameText(row.code, code))
            return false;
        const res = await db
            .deleteFrom('email_codes')
            .where('purpose', '=', purpose)
            .where('address', '=', address)
            .where('code', '=', row.code)
            .where('created_at', '=', row.created_at)
            .executeTakeFirst();
        return Number(res.numDeletedRows) === 1;
    }
    async wait(purpose, address, now, gapSeconds) {
        const row = await this.row(this.db, purpose, address);
        if (!row || Number(row.expires_at) <= now)
            return 0;
        return Math.max(0, Number(row.created_at) + gapSeconds - now);
    }
    async countSend(client, now, windowSeconds) {
        await this.db.insertInto('email_sends').values({ client, created_at: now }).execute();
        const row = await this.db
            .selectFrom('email_sends')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('client', '=', client)
            .where('created_at', '>', now - windowSeconds)
            .executeTakeFirstOrThrow();
        return Number(row.n);
    }
    async expire(now, sendWindowSeconds) {
        await this.db.deleteFrom('email_sends').where('created_at', '<=', now - sendWindowSeconds).execute();
        const res = await this.db.deleteFrom('email_codes').where('expires_at', '<=', now).executeTakeFirst();
        return Number(res.numDeletedRows);
    }
    async close() { }
}
function sameText(a, b) {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
}
//# sourceMappingURL=sql.js.map