import { STATE } from './store.js';
/*
 * Responses kept in the SQL database (table `responses`, migration 005). Expired rows are deleted by the
 * responses-retention job; reads ignore them before that (the keeper checks the time).
 */
const CHUNK = 500;
/** Rows per INSERT: at most 50, and at most 4 MB of text (MySQL refuses statements over max_allowed_packet). */
function statementGroups(rows) {
    const groups = [];
    let group = [];
    let bytes = 0;
    for (const row of rows) {
        const size = row.response.length + row.input.length;
        if (group.length > 0 && (group.length >= 50 || bytes + size > 4 * 1024 * 1024)) {
            groups.push(group);
            group = [];
            bytes = 0;
        }
        group.push(row);
        bytes += size;
    }
    if (group.length > 0)
        groups.push(group);
    return groups;
}
function chunks(list, size) {
    const out = [];
    for (let i = 0; i < list.length; i += size)
        out.push(list.slice(i, i + size));
    return out;
}
export class SqlResponsesStore {
    db;
    dialect;
    constructor(db, dialect) {
        this.db = db;
        this.dialect = dialect;
    }
    async read(userId, ids, withInput) {
        const out = new Map();
        for (const part of chunks(ids, CHUNK)) {
            const rows = await this.db
                .selectFrom('responses')
                .select(['id', 'created_at', 'state', 'response'])
                .$if(withInput, (q) => q.select('input'))
                .where('user_id', '=', userId)
                .where('id', 'in', part)
                .execute();
            for (const row of rows) {
                const createdAt = Number(row.created_at);
                if (row.state !== STATE.stored) {
                    out.set(row.id, { state: row.state, createdAt });
                    continue;
                }
                const input = row.input;
                out.set(row.id, {
                    state: STATE.stored,
                    createdAt,
                    response: JSON.parse(row.response),
                    input: input === undefined ? undefined : JSON.parse(input),
                });
            }
        }
        return out;
    }
    /**
     * All rows in one transaction, several per statement; if that fails, row by row, so one row the database refuses
     * (MySQL's max_allowed_packet, say) never holds back the others.
     */
    async write(rows) {
        const outcome = { failed: [], errors: [] };
        try {
            await this.db.transaction().execute(async (trx) => {
                for (const group of statementGroups(rows))
                    await this.insert(trx, group);
            });
        }
        catch (err) {
            outcome.errors.push(err);
            for (const row of rows) {
                try {
                    await this.insert(this.db, [row]);
                }
                catch (rowErr) {
                    outcome.failed.push(row.id);
                    outcome.errors.push(rowErr);
                }
            }
        }
        return outcome;
    }
    async delete(userId, id) {
        const result = await this.db.deleteFrom('responses').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
    }
    async expire(cutoff) {
        let deleted = 0;
        for (;;) {
            const ids = (await this.db.selectFrom('responses').select('id').where('created_at', '<', cutoff).limit(CHUNK).execute()).map((r) => r.id);
            if (ids.length === 0)
                return deleted;
            const result = await this.db.deleteFrom('responses').where('id', 'in', ids).executeTakeFirst();
            deleted += Number(result.numDeletedRows);
            if (ids.length < CHUNK)
                return deleted;
        }
    }
    async close() {
        // The database belongs to the app.
    }
    /** Idempotent: a retried row that did land (a commit whose answer was lost) is left as it is. */
    async insert(db, rows) {
        const values = rows.map((r) => ({ id: r.id, user_id: r.userId, created_at: r.createdAt, state: r.state, bytes: r.bytes, response: r.response, input: r.input }));
        const q = db.insertInto('responses').values(values);
        if (this.dialect === 'mysql')
            await q.onDuplicateKeyUpdate((eb) => ({ id: eb.ref('responses.id') })).execute();
        else
            await q.onConflict((oc) => oc.column('id').doNothing()).execute();
    }
    async evict(userId, limits) {
        const live = this.db
            .selectFrom('responses')
            .where('user_id', '=', userId)
            .where('state', '=', STATE.stored)
            .where('created_at', '>=', limits.cutoff);
        const { total } = await live.select((eb) => eb.fn.sum('bytes').as('total')).executeTakeFirstOrThrow();
        let excess = Number(total ?? 0) - limits.userBytes;
        if (excess <= 0)
            return;
        const victims = [];
        const rows = await live.select(['id', 'bytes']).orderBy('created_at').orderBy('id').execute();
        for (const row of rows) {
            if (excess <= 0)
                break;
            victims.push(row.id);
            excess -= Number(row.bytes);
        }
        for (const part of chunks(victims, CHUNK)) {
            await this.db
                .updateTable('responses')
                .set({ state: STATE.evicted, bytes: 0, response: '', input: '' })
                .where('id', 'in', part)
                .where('user_id', '=', userId)
                .execute();
        }
    }
}
//# sourceMappingURL=store-sql.js.map