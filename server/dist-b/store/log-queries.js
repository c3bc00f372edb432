import { SqliteAdapter, sql } from 'kysely';
import { LOG_TYPE } from '@switchyard/shared';
import { nowSeconds } from '../lib/time.js';
/** Counting stops this many rows past the start of the requested page. */
export const LOG_COUNT_CAP = 10_000;
/** Probes count a candidate's rows up to the first limit; candidates still tied there, up to the second. */
const PROBE_LIMITS = [2_000, 100_000];
export function formatLogCursor(row) {
    return `${row.created_at}.${row.id}`;
}
/** The largest row id (ids are 32-bit columns; PostgreSQL refuses to compare one with a larger value). */
const MAX_LOG_ID = 2_147_483_647;
export function parseLogCursor(text) {
    const m = /^(\d{1,15})\.(\d{1,10})$/.exec(text);
    if (!m || Number(m[2]) > MAX_LOG_ID)
        return null;
    return { createdAt: Number(m[1]), id: Number(m[2]) };
}
const isLikePattern = (name) => /[%_]/.test(name);
/** The equality filters that have an index of their own (each (column, created_at)). */
function equalities(f) {
    const out = [];
    if (f.userId !== undefined)
        out.push({ column: 'user_id', value: f.userId });
    if (f.username)
        out.push({ column: 'username', value: f.username });
    if (f.tokenName)
        out.push({ column: 'token_name', value: f.tokenName });
    if (f.channel)
        out.push({ column: 'channel_id', value: f.channel });
    if (f.modelName && !isLikePattern(f.modelName))
        out.push({ column: 'model_name', value: f.modelName });
    if (f.type)
        out.push({ column: 'type', value: f.type });
    return out;
}
function timeOf(f) {
    return { start: f.startTimestamp || undefined, end: f.endTimestamp || undefined };
}
/**
 * The WHERE clause. `drive` names the equality whose index SQLite must walk: the others are written as `+column`,
 * which SQLite cannot match to an index (the value is unchanged). Other databases get plain terms and plan alone.
 */
function filtered(q, f, time, drive) {
    let out = q;
    for (const { column, value } of equalities(f)) {
        out = drive && column !== drive ? out.where(sql `+${sql.ref(column)}`, '=', value) : out.where(column, '=', value);
    }
    if (f.modelName && isLikePattern(f.modelName))
        out = out.where('model_name', 'like', f.modelName);
    if (f.group)
        out = out.where('group', '=', f.group);
    if (time.start)
        out = out.where('created_at', '>=', time.start);
    if (time.end)
        out = out.where('created_at', '<=', time.end);
    return out;
}
/** Rows after the cursor in newest-first order; the first term is a plain range the index can seek to. */
function after(q, cursor) {
    if (!cursor)
        return q;
    return q
        .where('created_at', '<=', cursor.createdAt)
        .where((eb) => eb.or([eb('created_at', '<', cursor.createdAt), eb('id', '<', cursor.id)]));
}
const isSqlite = (db) => db.getExecutor().adapter instanceof SqliteAdapter;
/** Rows matching one equality in the time range, counted up to `limit` on its own index (an index-only count). */
async function probe(db, eq, time, limit) {
    const inner = filtered(db.selectFrom('logs').select(sql `1`.as('x')), {}, time)
        .where(eq.column, '=', eq.value)
        .limit(limit);
    const row = await db
        .selectFrom(inner.as('probe'))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
    return Number(row?.n ?? 0);
}
/**
 * On SQLite with two or more indexed equalities, the one to walk: the fewest rows in the range, probed with a small
 * limit first and again with a larger one among those that tie. Elsewhere (or with one equality) no hint.
 */
async function drivingColumn(db, f, time) {
    if (!isSqlite(db))
        return undefined;
    let candidates = equalities(f);
    if (candidates.length < 2)
        return undefined;
    for (const limit of PROBE_LIMITS) {
        const counts = await Promise.all(candidates.map((eq) => probe(db, eq, time, limit)));
        const fewest = Math.min(...counts);
        candidates = candidates.filter((_, i) => counts[i] === fewest);
        if (candidates.length === 1 || fewest < limit)
            break;
    }
    return candidates[0].column;
}
export async function pageLogs(db, filter, req) {
    const time = timeOf(filter);
    const drive = await drivingColumn(db, filter, time);
    const skipped = (req.page - 1) * req.pageSize;
    const offset = req.cursor ? 0 : skipped;
    let rows = after(filtered(db.selectFrom('logs').selectAll(), filter, time, drive), req.cursor)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(req.pageSize + 1);
    if (offset > 0)
        rows = rows.offset(offset);
    const found = await rows.execute();
    const items = found.slice(0, req.pageSize);
    const nextCursor = found.length > req.pageSize ? formatLogCursor(items[items.length - 1]) : '';
    // Count from where this page starts, at most LOG_COUNT_CAP rows on (plus the skipped ones when paging by offset).
    const countLimit = offset + (req.countCap ?? LOG_COUNT_CAP);
    const matching = after(filtered(db.selectFrom('logs').select(sql `1`.as('x')), filter, time, drive), req.cursor).limit(countLimit);
    const counted = await db
        .selectFrom(matching.as('matching'))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
    const n = Number(counted?.n ?? 0);
    const total = (req.cursor ? skipped : 0) + n;
    return { items, total, totalCapped: n >= countLimit, nextCursor };
}
/**
 * Sum of consume quota for the filters and time range; rpm and tpm count consume logs of the last 60 s with the
 * same filters (the time range does not apply to them).
 */
export async function logStat(db, filter, now = nowSeconds()) {
    const consume = { ...filter, type: LOG_TYPE.CONSUME };
    const time = timeOf(consume);
    const drive = await drivingColumn(db, consume, time);
    const q = await filtered(db.selectFrom('logs').select((eb) => eb.fn.sum('quota').as('quota')), consume, time, drive).executeTakeFirst();
    const lastMinute = { start: now - 60 };
    const recentDrive = await drivingColumn(db, consume, lastMinute);
    const recent = await filtered(db
        .selectFrom('logs')
        .select((eb) => [eb.fn.countAll().as('rpm'), eb.fn.sum(eb('prompt_tokens', '+', eb.ref('completion_tokens'))).as('tpm')]), consume, lastMinute, recentDrive).executeTakeFirst();
    return { quota: Number(q?.quota ?? 0), rpm: Number(recent?.rpm ?? 0), tpm: Number(recent?.tpm ?? 0) };
}
/**
 * Rows deleted per statement: short transactions, and between them the relay gets its turn — on SQLite a statement
 * holds the server's thread for its whole run (about 50 ms per 1000 rows with the log indexes), so batches are small.
 */
const deleteBatch = (db) => (isSqlite(db) ? 1_000 : 5_000);
/** Deletes every log older than the timestamp, in batches; returns the count. */
export async function deleteLogsBefore(db, timestamp, batch = deleteBatch(db)) {
    let deleted = 0;
    for (;;) {
        const ids = (await db.selectFrom('logs').select('id').where('created_at', '<', timestamp).limit(batch).execute()).map((r) => r.id);
        if (ids.length === 0)
            break;
        const res = await db.deleteFrom('logs').where('id', 'in', ids).executeTakeFirst();
        deleted += Number(res.numDeletedRows);
        if (ids.length < batch)
            break;
        await new Promise((resolve) => setImmediate(resolve));
    }
    return deleted;
}
//# sourceMappingURL=log-queries.js.map