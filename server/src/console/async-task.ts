import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { MidjourneyDto, TaskDto } from '@switchyard/shared';
import { caller } from '../auth/guard.js';
import type { Database } from '../db/schema.js';
import { listMidjourneys, listTasks, type MidjourneyRow, type TaskFilter, type TaskPageRequest, type TaskRow } from '../store/async-tasks.js';
import { ok } from './envelope.js';
import type { OptionReader } from '../options/index.js';
import { imageUrlOf } from '../relay/tasks/midjourney/view.js';
import { paging, queryInt, queryText, queryTime, type Query } from './query.js';

/*
 * The drawing log (GET /api/mj/, /api/mj/self/) and the async task log (GET /api/task/, /api/task/self): one page
 * as a plain list in `data`, `p` from 0, `page_size` rows (10 unless asked), newest first, as the established
 * console reads them (docs/admin-api-compat.md); a page shorter than asked is the last. No count is made. The self
 * views read the caller's rows only, never filter by channel and show no channel.
 *
 * Midjourney proxies report submit_time in milliseconds and the established console sends the drawing window in
 * milliseconds, the task window in seconds. A bound is read in either unit (below 10^11 it can only be seconds: in
 * milliseconds that is 1973) and brought to the unit of the column it is compared with.
 */
const SECONDS_BELOW = 100_000_000_000;

type Db = Kysely<Database>;

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

// The token columns are the gateway's own bookkeeping for refunds, not part of either list. A drawing's image is
// shown through the gateway's own address when MjForwardUrlEnabled (as the relay's fetch answers it): the proxy's
// address may be private, or unreachable from a browser.
const midjourneyView = ({ token_id: _t, token_quota: _q, ...row }: MidjourneyRow, self: boolean, options: OptionReader): MidjourneyDto => ({
  ...row,
  image_url: imageUrlOf(row, options),
  created_at: Math.floor(row.submit_time / 1000),
  channel_id: self ? 0 : row.channel_id,
});

const taskView = ({ token_id: _t, token_quota: _q, ...row }: TaskRow, self: boolean): TaskDto => ({ ...row, channel_id: self ? 0 : row.channel_id });

interface TaskList<Row, Dto> {
  /** The query parameter naming the upstream id. */
  upstreamParam: string;
  /** The unit of submit_time in this table. */
  unit: Unit;
  read: (db: Db, filter: TaskFilter, page: TaskPageRequest) => Promise<Row[]>;
  view: (row: Row, self: boolean, options: OptionReader) => Dto;
}

const DRAWINGS: TaskList<MidjourneyRow, MidjourneyDto> = { upstreamParam: 'mj_id', unit: 'ms', read: listMidjourneys, view: midjourneyView };
const TASKS: TaskList<TaskRow, TaskDto> = { upstreamParam: 'task_id', unit: 's', read: listTasks, view: taskView };

export const asyncTaskRoutes: FastifyPluginAsync = async (app) => {
  const db = app.ctx.db.kysely;
  const admin = { config: { access: 'admin' as const } };
  const user = { config: { access: 'user' as const } };

  async function listPage<Row, Dto>(list: TaskList<Row, Dto>, request: FastifyRequest, self: boolean): Promise<Dto[]> {
    const query = request.query as Query;
    const { size, offset } = paging(query);
    const filter = filterOf(query, list.upstreamParam, list.unit, self ? caller(request).id : undefined);
    const rows = await list.read(db, filter, { offset, limit: size });
    return rows.map((r) => list.view(r, self, app.ctx.options));
  }

  function serve<Row, Dto>(base: string, list: TaskList<Row, Dto>): void {
    const all = async (request: FastifyRequest) => ok(await listPage(list, request, false));
    const own = async (request: FastifyRequest) => ok(await listPage(list, request, true));
    for (const url of [`${base}/`, base]) app.get(url, admin, all);
    for (const url of [`${base}/self/`, `${base}/self`]) app.get(url, user, own);
  }
  serve('/mj', DRAWINGS);
  serve('/task', TASKS);
};
