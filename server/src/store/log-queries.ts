import { SqliteAdapter, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { LOG_TYPE, type LogStat } from '@switchyard/shared';
import type { Database, LogRow } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';
import { deleteOlderThan } from './batched-delete.js';
import { likeEscape } from './like-escape.js';

/*
 * The console's reads of `logs`, shaped for tables of tens of millions of rows (measured in docs/log-queries.md):
 * - rows come newest first by (created_at, id), so every filter index, which ends in created_at, hands them over in
 *   order and a page stops after page-size rows instead of sorting every match;
 * - the page after a known one is found by seeking past its last row (a cursor), not by skipping rows;
 * - the total is counted only up to a cap beyond the page (a lower bound after that), so no call walks the table;
 * - SQLite plans without statistics, so with several equality filters it is told which index to walk: the one whose
 *   value is rarest in the time range, found by a bounded probe of each candidate.
 */

type Db = Kysely<Database>;
type LogsQuery = SelectQueryBuilder<Database, 'logs', object>;

export interface LogFilter {
  /** Own logs only (the self views). */
  userId?: number;
  /** 0 = every type. */
  type: number;
  username: string;
  tokenName: string;
  /** Exact name, or a LIKE pattern when it holds % or _ (as operators of established gateways type it). */
  modelName: string;
  startTimestamp: number;
  endTimestamp: number;
  channel: number;
  group: string;
}

/** The position right after a row in newest-first order. */
export interface LogCursor {
  createdAt: number;
  id: number;
}

/** Counting stops this many rows past the start of the requested page. */
export const LOG_COUNT_CAP = 10_000;
/** Probes count a candidate's rows up to the first limit; candidates still tied there, up to the second. */
const PROBE_LIMITS = [2_000, 100_000] as const;

export function formatLogCursor(row: Pick<LogRow, 'created_at' | 'id'>): string {
  return `${row.created_at}.${row.id}`;
}

/** The largest row id (ids are 32-bit columns; PostgreSQL refuses to compare one with a larger value). */
const MAX_LOG_ID = 2_147_483_647;

export function parseLogCursor(text: string): LogCursor | null {
  const m = /^(\d{1,15})\.(\d{1,10})$/.exec(text);
  if (!m || Number(m[2]) > MAX_LOG_ID) return null;
  return { createdAt: Number(m[1]), id: Number(m[2]) };
}

type EqColumn = 'user_id' | 'username' | 'token_name' | 'channel_id' | 'model_name' | 'type';

interface Equality {
  column: EqColumn;
  value: string | number;
}

const isLikePattern = (name: string) => /[%_]/.test(name);

/** The equality filters that have an index of their own (each (column, created_at)). */
function equalities(f: Partial<LogFilter>): Equality[] {
  const out: Equality[] = [];
  if (f.userId !== undefined) out.push({ column: 'user_id', value: f.userId });
  if (f.username) out.push({ column: 'username', value: f.username });
  if (f.tokenName) out.push({ column: 'token_name', value: f.tokenName });
  if (f.channel) out.push({ column: 'channel_id', value: f.channel });
  if (f.modelName && !isLikePattern(f.modelName)) out.push({ column: 'model_name', value: f.modelName });
  if (f.type) out.push({ column: 'type', value: f.type });
  return out;
}

interface TimeRange {
  start?: number;
  end?: number;
}

function timeOf(f: Partial<LogFilter>): TimeRange {
  return { start: f.startTimestamp || undefined, end: f.endTimestamp || undefined };
}

/**
 * The WHERE clause. `drive` names the equality whose index SQLite must walk: the others are written as `+column`,
 * which SQLite cannot match to an index (the value is unchanged). Other databases get plain terms and plan alone.
 */
function filtered<Q extends LogsQuery>(q: Q, f: Partial<LogFilter>, time: TimeRange, drive?: EqColumn): Q {
  let out = q as LogsQuery;
  for (const { column, value } of equalities(f)) {
    out = drive && column !== drive ? out.where(sql`+${sql.ref(column)}`, '=', value) : out.where(column, '=', value);
  }
  if (f.modelName && isLikePattern(f.modelName)) out = out.where('model_name', 'like', f.modelName);
  if (f.group) out = out.where('group', '=', f.group);
  if (time.start) out = out.where('created_at', '>=', time.start);
  if (time.end) out = out.where('created_at', '<=', time.end);
  return out as Q;
}

/** Rows after the cursor in newest-first order; the first term is a plain range the index can seek to. */
function after<Q extends LogsQuery>(q: Q, cursor: LogCursor | null | undefined): Q {
  if (!cursor) return q;
  return q
    .where('created_at', '<=', cursor.createdAt)
    .where((eb) => eb.or([eb('created_at', '<', cursor.createdAt), eb('id', '<', cursor.id)])) as Q;
}

const isSqlite = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter;

/** Rows matching one equality in the time range, counted up to `limit` on its own index (an index-only count). */
async function probe(db: Db, eq: Equality, time: TimeRange, limit: number): Promise<number> {
  const inner = filtered(db.selectFrom('logs').select(sql<number>`1`.as('x')), {}, time)
    .where(eq.column, '=', eq.value)
    .limit(limit);
  const row = await db
    .selectFrom(inner.as('probe'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * On SQLite with two or more indexed equalities, the one to walk: the fewest rows in the range, probed with a small
 * limit first and again with a larger one among those that tie. Elsewhere (or with one equality) no hint.
 */
async function drivingColumn(db: Db, f: Partial<LogFilter>, time: TimeRange): Promise<EqColumn | undefined> {
  if (!isSqlite(db)) return undefined;
  let candidates = equalities(f);
  if (candidates.length < 2) return undefined;
  for (const limit of PROBE_LIMITS) {
    const counts = await Promise.all(candidates.map((eq) => probe(db, eq, time, limit)));
    const fewest = Math.min(...counts);
    candidates = candidates.filter((_, i) => counts[i] === fewest);
    if (candidates.length === 1 || fewest < limit) break;
  }
  return candidates[0].column;
}

export interface LogPageRequest {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The end of page - 1 (from its nextCursor): seek there instead of skipping (page - 1) x pageSize rows. */
  cursor?: LogCursor | null;
  /** Rows counted past the page start (default LOG_COUNT_CAP). */
  countCap?: number;
}

export interface LogPageResult {
  items: LogRow[];
  /** Exact when !totalCapped; otherwise a lower bound (LOG_COUNT_CAP rows past the page start were counted). */
  total: number;
  totalCapped: boolean;
  /** Where the next page starts; '' when this page is the last. */
  nextCursor: string;
}

export async function pageLogs(db: Db, filter: Partial<LogFilter>, req: LogPageRequest): Promise<LogPageResult> {
  const time = timeOf(filter);
  const drive = await drivingColumn(db, filter, time);
  const skipped = (req.page - 1) * req.pageSize;
  const offset = req.cursor ? 0 : skipped;

  let rows = after(filtered(db.selectFrom('logs').selectAll(), filter, time, drive), req.cursor)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(req.pageSize + 1);
  if (offset > 0) rows = rows.offset(offset);
  const found = await rows.execute();
  const items = found.slice(0, req.pageSize);
  const nextCursor = found.length > req.pageSize ? formatLogCursor(items[items.length - 1]) : '';

  // Count from where this page starts, at most LOG_COUNT_CAP rows on (plus the skipped ones when paging by offset).
  const countLimit = offset + (req.countCap ?? LOG_COUNT_CAP);
  const matching = after(filtered(db.selectFrom('logs').select(sql<number>`1`.as('x')), filter, time, drive), req.cursor).limit(countLimit);
  const counted = await db
    .selectFrom(matching.as('matching'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  const n = Number(counted?.n ?? 0);
  const total = (req.cursor ? skipped : 0) + n;
  return { items, total, totalCapped: n >= countLimit, nextCursor };
}

/**
 * Sum of consume quota for the filters and time range; rpm and tpm count consume logs of the last 60 s with the
 * same filters (the time range does not apply to them).
 */
export async function logStat(db: Db, filter: Partial<LogFilter>, now: number = nowSeconds()): Promise<LogStat> {
  const consume = { ...filter, type: LOG_TYPE.CONSUME };
  const time = timeOf(consume);
  const drive = await drivingColumn(db, consume, time);
  const sums = db
    .selectFrom('logs')
    .select((eb) => [eb.fn.sum<number>('quota').as('quota'), eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'), eb.fn.sum<number>('cache_tokens').as('cache_tokens')]);
  const q = await filtered(sums, consume, time, drive).executeTakeFirst();
  const lastMinute = { start: now - 60 };
  const recentDrive = await drivingColumn(db, consume, lastMinute);
  const recent = await filtered(
    db
      .selectFrom('logs')
      .select((eb) => [eb.fn.countAll<number>().as('rpm'), eb.fn.sum<number>(eb('prompt_tokens', '+', eb.ref('completion_tokens'))).as('tpm')]),
    consume,
    lastMinute,
    recentDrive,
  ).executeTakeFirst();
  return {
    quota: Number(q?.quota ?? 0),
    rpm: Number(recent?.rpm ?? 0),
    tpm: Number(recent?.tpm ?? 0),
    prompt_tokens: Number(q?.prompt_tokens ?? 0),
    cache_tokens: Number(q?.cache_tokens ?? 0),
  };
}

/** Deletes every log older than the timestamp, in batches; returns the count. */
export async function deleteLogsBefore(db: Db, timestamp: number, batch?: number): Promise<number> {
  return deleteOlderThan(db, 'logs', 'created_at', timestamp, batch);
}

/** Rows the established gateway's list-shaped log calls answer with: the newest, at most this many. */
export const RECENT_LOGS = 100;

/**
 * The established keyword search: logs whose type is the keyword (a number) or whose content starts with it, newest
 * first. Only the user's own with `userId`. The content match walks the logs from the newest (no index has it).
 */
export async function searchLogs(db: Db, keyword: string, userId?: number): Promise<LogRow[]> {
  let q = db.selectFrom('logs').selectAll();
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const type = /^\d{1,9}$/.test(keyword) ? Number(keyword) : null;
  q = q.where((eb) => {
    const content = sql<boolean>`${sql.ref('content')} like ${`${likeEscape(keyword)}%`} escape '!'`;
    return type === null ? content : eb.or([eb('type', '=', type), content]);
  });
  return newest(q);
}

/** The newest logs of one token (its owner's logs, walked by the user index, kept when they name the token). */
export async function logsOfToken(db: Db, userId: number, tokenId: number): Promise<LogRow[]> {
  return newest(db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('token_id', '=', tokenId));
}

function newest(q: SelectQueryBuilder<Database, 'logs', LogRow>): Promise<LogRow[]> {
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(RECENT_LOGS).execute();
}
