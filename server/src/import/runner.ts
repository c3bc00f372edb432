import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { Insertable, Transaction } from 'kysely';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { sqliteHandleOf } from '../db/sqlite-handle.js';
import { readCatalog, type Catalog } from './catalog.js';
import { detectSystem, type Detected } from './detect.js';
import { formatSummary, silentProgress, type ProgressSink, type TableReport } from './progress.js';
import { countRows, readPages } from './reader.js';
import type { SourceDb } from './source.js';
import { NOT_COPIED, tableImports } from './tables/index.js';
import { isSkip, type ImportContext, type TableImport, type TargetTable } from './table-import.js';
import { runningServersMessage } from './running-servers.js';
import { advanceSequences, clearImported, clearMarker, inspectTarget, setMarker } from './target.js';
import { float, text } from './values.js';

/** The target holds data already, or a server runs on it: nothing was written. */
export class ImportRefused extends Error {}

/** The signal was aborted (Ctrl-C): what the import wrote was removed. */
export class ImportStopped extends Error {
  constructor() {
    super('import stopped');
  }
}

/**
 * Lets signal handlers run, then stops if the import was aborted. On SQLite every read and write is synchronous, so
 * without this an import never gives the event loop a turn and Ctrl-C is only seen once it has finished.
 */
async function betweenBatches(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new ImportStopped();
}

export interface ImportOptions {
  progress?: ProgressSink;
  /** Aborting stops the import between two batches; what it wrote is removed. */
  signal?: AbortSignal;
  /** Called after each table is committed (tests stop an import half-way through it). */
  afterTable?(table: string): void | Promise<void>;
  /** Rows read per page. */
  pageSize?: number;
  /** Where `logs` lives when the incumbent kept it in a database of its own (LOG_SQL_DSN). */
  logSource?: SourceDb;
}

export interface ImportResult {
  detected: Detected;
  reports: TableReport[];
  notImported: string[];
  summary: string;
}

const DEFAULT_QUOTA_PER_UNIT = 500_000;
/** Bound parameters per INSERT: under SQLite's 32766 (and the 65535 of PostgreSQL and MySQL). */
const MAX_PARAMS = 30_000;

async function sourceQuotaPerUnit(source: SourceDb): Promise<number> {
  const row = await source.kysely.selectFrom('options').selectAll().where('key', '=', 'QuotaPerUnit').executeTakeFirst();
  const value = float(text((row as Record<string, unknown> | undefined)?.value), DEFAULT_QUOTA_PER_UNIT);
  return value > 0 ? value : DEFAULT_QUOTA_PER_UNIT;
}

/**
 * On SQLite, rows go in through one prepared statement run per row, on the connection of the open transaction
 * (better-sqlite3 is synchronous): several times faster than compiling multi-row INSERTs, which is what the other
 * dialects get (one round trip per batch matters more there).
 */
function sqliteInserter(handle: SqliteDatabase, table: string): (rows: Array<Record<string, unknown>>) => void {
  let columns: string[] | undefined;
  let insert: Statement | undefined;
  return (rows) => {
    columns ??= Object.keys(rows[0]);
    insert ??= handle.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    for (const row of rows) insert.run(columns.map((c) => row[c]));
  };
}

/**
 * Secondary indexes of a SQLite table are dropped while its rows go in and made again from their own definitions
 * at the end, in the same transaction: building an index once, sorted, is several times faster than keeping it up
 * to date row by row (1M logs carry 8 of them). Unique indexes stay, so a repeated key fails at its row.
 */
function suspendSqliteIndexes(handle: SqliteDatabase, table: string): () => void {
  const indexes = handle.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null and sql not like 'create unique%'").all(table) as Array<{
    name: string;
    sql: string;
  }>;
  for (const index of indexes) handle.exec(`drop index "${index.name}"`);
  return () => {
    for (const index of indexes) handle.exec(index.sql);
  };
}

async function importTable(
  source: SourceDb,
  sqlite: SqliteDatabase | undefined,
  trx: Transaction<Database>,
  imp: TableImport,
  catalog: Catalog,
  base: Omit<ImportContext, 'note' | 'has'>,
  opts: ImportOptions,
): Promise<TableReport> {
  const columns = catalog.get(imp.source) ?? new Set<string>();
  const report: TableReport = {
    table: imp.target,
    read: 0,
    written: 0,
    seconds: 0,
    skipped: new Map(),
    notes: new Map(),
    notCarried: [...columns].filter((c) => !imp.reads.includes(c)).sort(),
    extra: [],
  };
  const bump = (m: Map<string, number>, why: string) => m.set(why, (m.get(why) ?? 0) + 1);
  const ctx: ImportContext = { ...base, note: (why) => bump(report.notes, why), has: (c) => columns.has(c) };
  const started = performance.now();
  const total = await countRows(source, imp.source);
  const progress = opts.progress ?? silentProgress;
  progress.start(imp.target, total);
  let batchSize = 0;
  const sqliteInsert = sqlite && !imp.insert ? sqliteInserter(sqlite, imp.target) : undefined;
  const restoreIndexes = sqliteInsert && sqlite ? suspendSqliteIndexes(sqlite, imp.target) : undefined;
  for await (const page of readPages(source, imp.source, columns.has('id'), opts.pageSize ?? 5000)) {
    const rows: Array<Insertable<Database[TargetTable]>> = [];
    for (const row of page) {
      const mapped = imp.map(row, ctx);
      if (isSkip(mapped)) bump(report.skipped, mapped.skip);
      else rows.push(mapped);
    }
    report.read += page.length;
    if (rows.length > 0 && sqliteInsert) {
      sqliteInsert(rows as Array<Record<string, unknown>>);
      report.written += rows.length;
    } else if (rows.length > 0) {
      batchSize ||= Math.max(1, Math.min(2000, Math.floor(MAX_PARAMS / Object.keys(rows[0]).length)));
      for (let i = 0; i < rows.length; i += batchSize) {
        const batch = rows.slice(i, i + batchSize);
        if (imp.insert) report.written += await imp.insert(trx, batch, ctx);
        else {
          await trx.insertInto(imp.target).values(batch as never).execute();
          report.written += batch.length;
        }
      }
    }
    progress.advance(report.read);
    await betweenBatches(opts.signal);
  }
  restoreIndexes?.();
  if (imp.finish) report.extra.push(...(await imp.finish(trx, ctx)));
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/**
 * Imports a new-api or one-api database into an empty Switchyard database: migrates the target, refuses one that
 * holds data, then copies table by table, each in its own transaction. A failure or an abort removes what was
 * written; a killed import leaves a marker, and the next run clears its rows before starting again. Either way the
 * target ends empty or complete.
 */
export async function runImport(source: SourceDb, sourceLabel: string, target: Db, opts: ImportOptions = {}): Promise<ImportResult> {
  const catalog = await readCatalog(source);
  const detected = detectSystem(catalog);
  const logCatalog = opts.logSource ? await readCatalog(opts.logSource) : undefined;
  if (logCatalog && !logCatalog.has('logs')) throw new Error('the log database has no logs table');
  const quotaPerUnit = await sourceQuotaPerUnit(source);
  await migrateToLatest(target);
  const state = await inspectTarget(target.kysely);
  if (state.kind === 'holds-data') {
    throw new ImportRefused(`the target database already holds data (${state.what}); import only into an empty database`);
  }
  const served = await runningServersMessage(target.kysely);
  if (served) throw new ImportRefused(served);
  const notImported: string[] = [];
  if (state.kind === 'interrupted') {
    await clearImported(target.kysely);
    notImported.push('(an earlier import was stopped half-way; its rows were removed first)');
  }
  const now = Math.floor(Date.now() / 1000);
  await setMarker(target.kysely, now);
  // Again with the marker set: a server starting from now on sees it and refuses, and one that started since the
  // first look has announced itself before looking for the marker (cluster/server-presence.ts).
  const servedNow = await runningServersMessage(target.kysely);
  if (servedNow) {
    await clearMarker(target.kysely);
    throw new ImportRefused(servedNow);
  }
  const reports: TableReport[] = [];
  const imports = tableImports();
  try {
    for (const imp of imports) {
      await betweenBatches(opts.signal);
      const logDb = imp.source === 'logs' && opts.logSource && logCatalog ? { db: opts.logSource, catalog: logCatalog } : undefined;
      const tableSource = logDb?.db ?? source;
      const tableCatalog = logDb?.catalog ?? catalog;
      if (!tableCatalog.has(imp.source)) {
        notImported.push(`${imp.source}: not in the source`);
        continue;
      }
      const report = await target.kysely.transaction().execute(async (trx) => {
        // A first start's untouched root/123456 gives way to the imported accounts.
        if (imp.target === 'users' && state.kind === 'fresh-root') await trx.deleteFrom('users').where('id', '=', state.rootId).execute();
        const base = { system: detected.system, catalog: tableCatalog, now, quotaPerUnit };
        return importTable(tableSource, sqliteHandleOf(target.kysely), trx, imp, tableCatalog, base, opts);
      });
      reports.push(report);
      opts.progress?.end(report);
      await opts.afterTable?.(imp.target);
    }
    await advanceSequences(target, imports.map((i) => i.target).filter((t) => t !== 'options'));
    await betweenBatches(opts.signal);
    await clearMarker(target.kysely);
  } catch (err) {
    await clearImported(target.kysely).catch(() => {});
    throw err;
  }
  const copied = new Set(imports.map((i) => i.source));
  for (const table of [...catalog.keys()].sort()) {
    if (!copied.has(table)) notImported.push(`${table}: ${NOT_COPIED[table] ?? 'not known to Switchyard'}`);
  }
  return { detected, reports, notImported, summary: formatSummary(sourceLabel, detected.description, reports, notImported) };
}
