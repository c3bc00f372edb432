import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from '../db/schema.js';

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

interface Reply {
  id: number;
  rows?: unknown[];
  error?: string;
}

class WorkerConnection implements DatabaseConnection {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(rows: unknown[]): void; reject(err: Error): void }>();
  failure: Error | null = null;

  constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.rows ?? []);
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the SQLite reader stopped (exit ${code})`)));
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const rows = await new Promise<unknown[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql: query.sql, params: query.parameters });
    });
    return { rows: rows as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the SQLite reader does not stream');
  }
}

class WorkerDriver implements Driver {
  private worker: Worker | null = null;
  private connection: WorkerConnection | null = null;

  constructor(private readonly file: string) {}

  async init(): Promise<void> {
    this.start();
  }

  private start(): WorkerConnection {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, driver } });
    this.worker.unref();
    this.connection = new WorkerConnection(this.worker);
    return this.connection;
  }

  /** The worker's connection; a worker that died (out of memory, a crash) is replaced by a fresh one. */
  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.connection || this.connection.failure) {
      void this.worker?.terminate();
      return this.start();
    }
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('the SQLite reader has no transactions');
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}

/** A read-only Kysely on a worker thread over the SQLite file at `file`. */
export function sqliteReader(file: string): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new WorkerDriver(file),
      createQueryCompiler: () => new SqliteQueryCompiler(),
      createIntrospector: (db) => new SqliteIntrospector(db),
    },
  });
}

/** The file behind a SQLite connection, or null for an in-memory database (which another thread cannot open). */
export async function sqliteFileOf(db: Kysely<Database>): Promise<string | null> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const file = rows.find((r) => r.name === 'main')?.file ?? '';
  return file === '' ? null : file;
}
