/** Distinct statements kept prepared; past this the cache starts over (the set of queries is small and fixed). */
const MAX_STATEMENTS = 256;
/**
 * Kysely prepares every query it runs on SQLite afresh, and preparing costs more than running for the small
 * statements of the hot path (a consume-log insert, a balance update). This hands Kysely the same database with a
 * memory of prepared statements by SQL text. A statement still being iterated (a streamed select) is busy and
 * cannot run twice at once, so such a caller gets a fresh one.
 */
export function withStatementCache(database, max = MAX_STATEMENTS) {
    const statements = new Map();
    return {
        prepare(sql) {
            const cached = statements.get(sql);
            if (cached && !cached.busy)
                return cached;
            const stmt = database.prepare(sql);
            if (!cached) {
                if (statements.size >= max)
                    statements.clear();
                statements.set(sql, stmt);
            }
            return stmt;
        },
        close() {
            statements.clear();
            database.close();
        },
    };
}
//# sourceMappingURL=statement-cache.js.map