import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { LogDto, LogPage } from '@switchyard/shared';
import { caller } from '../auth/guard.js';
import type { LogRow } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { deleteLogsBefore, logsOfToken, logStat, pageLogs, parseLogCursor, searchLogs, type LogFilter } from '../store/log-queries.js';
import { findTokenByKey } from '../store/tokens.js';
import { sqliteFileOf, sqliteReader } from '../store/sqlite-reader.js';
import { ok } from './envelope.js';
import { paging, queryInt, queryText, queryTime, type Query } from './query.js';

export const LOG_MESSAGES = {
  noTimestamp: '请选择日志记录时间',
  unknownKey: '无效的令牌',
} as const;

/**
 * Page numbers are 1-based here, as in the established gateway's log API; 0 and below mean the first page.
 * `cursor` (the next_cursor of page p - 1) makes the server seek to page p instead of skipping rows.
 */
function logPaging(query: Query): { page: number; pageSize: number; cursor: ReturnType<typeof parseLogCursor> } {
  const { page, size } = paging(query, { firstPage: 1 });
  const cursor = page > 1 ? parseLogCursor(queryText(query, 'cursor')) : null;
  return { page, pageSize: size, cursor };
}

/** Filters from the query; the self views never filter by username or channel (their own logs only). */
function filterOf(query: Query, self: boolean): Partial<LogFilter> {
  const filter: Partial<LogFilter> = {
    type: queryInt(query, 'type'),
    tokenName: queryText(query, 'token_name'),
    modelName: queryText(query, 'model_name'),
    startTimestamp: queryTime(query, 'start_timestamp'),
    endTimestamp: queryTime(query, 'end_timestamp'),
    group: queryText(query, 'group'),
  };
  if (!self) {
    filter.username = queryText(query, 'username');
    filter.channel = queryInt(query, 'channel');
  }
  return filter;
}

/** A key as users copy it (`sk-` and a pinned channel `-<id>` allowed) without those parts. */
const tokenKeyOf = (text: string): string => (text.startsWith('sk-') ? text.slice(3) : text).split('-', 1)[0];

/** `other` without admin_info (the retry chain names channels), for the owner's view. */
function withoutAdminInfo(other: string): string {
  if (!other.includes('admin_info')) return other;
  try {
    const parsed = JSON.parse(other) as Record<string, unknown>;
    delete parsed.admin_info;
    return JSON.stringify(parsed);
  } catch {
    return '';
  }
}

export const logRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // The logs' database: the main one, or LOG_SQL_DSN's.
  const db = ctx.logDb.kysely;
  // On SQLite the list and stat reads (which may walk many rows) run on a worker thread, off the relay's thread.
  const file = ctx.logDb.dialect === 'sqlite' ? await sqliteFileOf(db) : null;
  const reader = file ? sqliteReader(file) : db;
  if (file) app.addHook('onClose', () => reader.destroy());
  const admin = { config: { access: 'admin' as const } };
  const user = { config: { access: 'user' as const } };

  function view(row: LogRow, self: boolean): LogDto {
    const { channel_id, is_stream, ...rest } = row;
    return {
      ...rest,
      is_stream: is_stream === 1,
      channel: self ? 0 : channel_id,
      channel_name: self ? '' : (ctx.routing.channel(channel_id)?.name ?? ''),
      other: self ? withoutAdminInfo(row.other) : row.other,
    };
  }

  async function page(query: Query, self: boolean, userId?: number): Promise<LogPage> {
    const { page: p, pageSize, cursor } = logPaging(query);
    const filter = { ...filterOf(query, self), userId };
    const found = await pageLogs(reader, filter, { page: p, pageSize, cursor });
    return {
      items: found.items.map((r) => view(r, self)),
      total: found.total,
      total_capped: found.totalCapped,
      page: p,
      page_size: pageSize,
      next_cursor: found.nextCursor,
    };
  }

  const list = async (request: FastifyRequest) => ok(await page(request.query as Query, false));
  app.get('/log/', admin, list);
  app.get('/log', admin, list);

  const self = async (request: FastifyRequest) => ok(await page(request.query as Query, true, caller(request).id));
  app.get('/log/self/', user, self);
  app.get('/log/self', user, self);

  // The established gateway's keyword search (type, or the start of the content): the newest 100, as a list.
  app.get('/log/search', admin, async (request) => {
    const rows = await searchLogs(reader, queryText(request.query as Query, 'keyword'));
    return ok(rows.map((r) => view(r, false)));
  });
  app.get('/log/self/search', user, async (request) => {
    const rows = await searchLogs(reader, queryText(request.query as Query, 'keyword'), caller(request).id);
    return ok(rows.map((r) => view(r, true)));
  });

  // A key's own logs for whoever holds the key (key-usage pages on other sites call it, hence CORS): the owner's
  // view, the newest 100.
  app.get('/log/token', { config: { access: 'public' } }, async (request, reply) => {
    void reply.header('access-control-allow-origin', '*');
    const token = await findTokenByKey(ctx.db.kysely, tokenKeyOf(queryText(request.query as Query, 'key')));
    if (!token) throw fail(LOG_MESSAGES.unknownKey);
    const rows = await logsOfToken(reader, token.user_id, token.id);
    return ok(rows.map((r) => view(r, true)));
  });

  app.get('/log/stat', admin, async (request) => ok(await logStat(reader, filterOf(request.query as Query, false))));
  app.get('/log/self/stat', user, async (request) =>
    ok(await logStat(reader, { ...filterOf(request.query as Query, true), userId: caller(request).id })),
  );

  const clear = async (request: FastifyRequest) => {
    const target = queryTime(request.query as Query, 'target_timestamp');
    if (target <= 0) throw fail(LOG_MESSAGES.noTimestamp);
    return ok(await deleteLogsBefore(db, target));
  };
  app.delete('/log/', admin, clear);
  app.delete('/log', admin, clear);
};
