import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql, } from 'kysely';
/*
 * better-sqlite3 answers on the calling thread, so a read that walks a million log rows would stall every relay
 * call of the process for its duration. Reads that may be long (the console's log list and stat) go instead to a
 * worker thread holding its own read-only connection to the same file (WAL lets it read while the server writes).
 * It is a Kysely instance like the main one, so the same query code runs on either.
 */
// Plain CommonJS, evaluated in the worker: open the file read-only and answer {id, sql, params} with rows.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      if (!stmt.reader) throw new Error('the log reader only reads');
      if (statements.size > 200) statements.clear();
      statements.set(sql, stmt);
    }
    parentPort.postMessage({ id, rows: stmt.all(...params) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
`;
class WorkerConnection {
    worker;
    nextId = 1;
    pending = new Map();
    failure = null;
    constructor(worker) {
        this.worker = worker;
        worker.on('message', (reply) => {
            const waiting = this.pending.get(reply.id);
            if (!waiting)
                return;
            this.pending.delete(reply.id);
            if (reply.error !== undefined)
                waiting.reject(new Error(reply.error));
            else
                waiting.resolve(reply.rows ?? []);
        });
        const fail = (err) => {
            this.failure = err;
            for (const waiting of this.pending.values())
                waiting.reject(err);
            this.pending.clear();
        };
        worker.on('error', fail);
        worker.on('exit', (code) => fail(new Error(`the SQLite reader stopped (exit ${code})`)));
    }
    async executeQuery(query) {
        if (this.failure)
            throw this.failure;
        const id = this.nextId++;
        const rows = await new Promise((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            this.worker.postMessage({ id, sql: query.sql, params: query.parameters });
        });
        return { rows: rows };
    }
    // eslint-disable-next-line require-yield
    async *streamQuery() {
        throw new Error('the SQLite reader does not stream');
    }
}
class WorkerDriver {
    file;
    worker = null;
    connection = null;
    constructor(file) {
        this.file = file;
    }
    async init() {
        this.start();
    }
    start() {
        const driver = createRequire(import.meta.url).resolve('better-sqlite3');
        this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, driver } });
        this.worker.unref();
        this.connection = new WorkerConnection(this.worker);
        return this.connection;
    }
    /** The worker's connection; a worker that died (out of memory, a crash) is replaced by a fresh one. */
    async acquireConnection() {
        if (!this.connection || this.connection.failure) {
            void this.worker?.terminate();
            return this.start();
        }
        return this.connection;
    }
    async beginTransaction() {
        throw new Error('the SQLite reader has no transactions');
    }
    async commitTransaction() { }
    async rollbackTransaction() { }
    async releaseConnection() { }
    async destroy() {
        await this.worker?.terminate();
        this.worker = null;
    }
}
/** A read-only Kysely on a worker thread over the SQLite file at `file`. */
export function sqliteReader(file) {
    return new Kysely({
        dialect: {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new WorkerDriver(file),
            createQueryCompiler: () => new SqliteQueryCompiler(),
            createIntrospector: (db) => new SqliteIntrospector(db),
        },
    });
}
/** The file behind a SQLite connection, or null for an in-memory database (which another thread cannot open). */
export async function sqliteFileOf(db) {
    const { rows } = await sql `pragma database_list`.execute(db);
    const file = rows.find((r) => r.name === 'main')?.file ?? '';
    return file === '' ? null : file;
}
//# sourceMappingURL=sqlite-reader.js.map