import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { MidjourneyDto, Page, TaskDto } from '@switchyard/shared';
import { caller } from '../auth/guard.js';
import { pageMidjourneys, pageTasks, type MidjourneyRow, type TaskFilter, type TaskRow } from '../store/async-tasks.js';
import { ok } from './envelope.js';
import { paging, queryInt, queryText, queryTime, type Query } from './query.js';

/*
 * The drawing log (GET /api/mj/, /api/mj/self/) and the async task log (GET /api/task/, /api/task/self): pages of
 * { items, total, page, page_size }, 1-based `p`, newest first. The self views read the caller's rows only, never
 * filter by channel and show no channel.
 *
 * Midjourney proxies report submit_time in milliseconds and the established console sends the drawing window in
 * milliseconds, the task window in seconds. A bound is read in either unit (below 10^11 it can only be seconds: in
 * milliseconds that is 1973) and brought to the unit of the column it is compared with.
 */
const SECONDS_BELOW = 100_000_000_000;

type Unit = 'ms' | 's';

function bound(query: Query, name: string, unit: Unit, end: boolean): number {
  const value = queryTime(query, name);
  if (value <= 0) return 0;
  const inSeconds = value < SECONDS_BELOW;
  if (unit === 'ms') return inSeconds ? value * 1000 + (end ? 999 : 0) : value;
  return inSeconds ? value : Math.floor(value / 1000);
}

function filterOf(query: Query, upstreamParam: string, unit: Unit, userId?: number): TaskFilter {
  return {
    userId,
    channelId: userId === undefined ? queryInt(query, 'channel_id') : 0,
    upstreamId: queryText(query, upstreamParam),
    startTime: bound(query, 'start_timestamp', unit, false),
    endTime: bound(query, 'end_timestamp', unit, true),
  };
}

const midjourneyView = (row: MidjourneyRow, self: boolean): MidjourneyDto => ({
  ...row,
  created_at: Math.floor(row.submit_time / 1000),
  channel_id: self ? 0 : row.channel_id,
});

const taskView = (row: TaskRow, self: boolean): TaskDto => ({ ...row, channel_id: self ? 0 : row.channel_id });

export const asyncTaskRoutes: FastifyPluginAsync = async (app) => {
  const db = app.ctx.db.kysely;
  const admin = { config: { access: 'admin' as const } };
  const user = { config: { access: 'user' as const } };

  async function drawings(request: FastifyRequest, self: boolean): Promise<Page<MidjourneyDto>> {
    const query = request.query as Query;
    const { page, size, offset } = paging(query, { firstPage: 1 });
    const filter = filterOf(query, 'mj_id', 'ms', self ? caller(request).id : undefined);
    const found = await pageMidjourneys(db, filter, { offset, limit: size });
    return { items: found.items.map((r) => midjourneyView(r, self)), total: found.total, page, page_size: size };
  }

  async function tasks(request: FastifyRequest, self: boolean): Promise<Page<TaskDto>> {
    const query = request.query as Query;
    const { page, size, offset } = paging(query, { firstPage: 1 });
    const filter = filterOf(query, 'task_id', 's', self ? caller(request).id : undefined);
    const found = await pageTasks(db, filter, { offset, limit: size });
    return { items: found.items.map((r) => taskView(r, self)), total: found.total, page, page_size: size };
  }

  for (const url of ['/mj/', '/mj']) app.get(url, admin, async (request) => ok(await drawings(request, false)));
  for (const url of ['/mj/self/', '/mj/self']) app.get(url, user, async (request) => ok(await drawings(request, true)));
  for (const url of ['/task/', '/task']) app.get(url, admin, async (request) => ok(await tasks(request, false)));
  for (const url of ['/task/self/', '/task/self']) app.get(url, user, async (request) => ok(await tasks(request, true)));
};
