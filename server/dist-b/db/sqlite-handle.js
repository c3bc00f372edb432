/*
 * The better-sqlite3 connection behind a Kysely instance on SQLite, for the few store functions on the relay's hot
 * path that run their statements synchronously (store/quota-sqlite.ts). Registered by connect().
 */
const handles = new WeakMap();
export function registerSqliteHandle(kysely, database) {
    handles.set(kysely, database);
}
export function sqliteHandleOf(kysely) {
    return handles.get(kysely);
}
//# sourceMappingURL=sqlite-handle.js.map