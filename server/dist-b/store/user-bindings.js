import { createHash } from 'node:crypto';
import { sql } from 'kysely';
/** The first key of PostgreSQL's two-key advisory locks: binding locks stay apart from any other use of them. */
const PG_LOCK_SPACE = 0x5359_0001;
/** The account holding this id, soft-deleted ones included (a deregistered account keeps its binding). */
export async function findUserByBinding(db, column, value) {
    if (!value)
        return undefined;
    return db.selectFrom('users').selectAll().where(column, '=', value).orderBy('id').executeTakeFirst();
}
export async function setBinding(db, userId, column, value) {
    await db.updateTable('users').set({ [column]: value }).where('id', '=', userId).execute();
}
/**
 * Runs `work` in a transaction while holding the lock of one binding (column + id), so two sign-ins with the same
 * id cannot both find it free. PostgreSQL: a transaction-scoped advisory lock; MySQL: a named lock on the
 * connection, taken before the transaction begins and released after it ends (so the next holder sees its
 * writes); SQLite has one writer at a time already (a transaction that read before another's write cannot commit).
 */
export async function withBindingLock(db, dialect, column, value, work) {
    const name = `sy:bind:${createHash('sha1').update(`${column}\n${value}`).digest('hex')}`;
    if (dialect === 'mysql') {
        return db.connection().execute(async (conn) => {
            const got = await sql `select get_lock(${name}, 10) as got`.execute(conn);
            if (Number(got.rows[0]?.got) !== 1)
                throw new Error(`lock ${name} not granted within 10 s`);
            try {
                return await conn.transaction().execute(work);
            }
            finally {
                await sql `select release_lock(${name})`.execute(conn);
            }
        });
    }
    return db.transaction().execute(async (trx) => {
        if (dialect === 'postgres')
            await sql `select pg_advisory_xact_lock(${PG_LOCK_SPACE}, hashtext(${name}))`.execute(trx);
        return work(trx);
    });
}
/** The highest account id so far (0 on an empty table): names like wechat_<n> follow it, as on other gateways. */
export async function maxUserId(db) {
    const row = await db.selectFrom('users').select(sql `max(id)`.as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
}
//# sourceMappingURL=user-bindings.js.map