import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateToken } from '../../auth.js';
import { pinnedChannel } from '../../pipeline.js';
import { pathSegment } from '../../path-segment.js';
import { resolveBaseUrl } from '../../providers/base-url.js';
import { prepareTaskRoutes, registerUnmatchedTaskPaths, type TaskRouteSurface } from '../routes-base.js';
import type { TaskReply } from '../submit.js';
import { callTaskUpstream } from '../upstream-call.js';
import { streamImage } from './image.js';
import { pollChannel } from './poll.js';
import { mjErrorBody, mjReply, requestRefused, send } from './replies.js';
import { findOwnTask, listOwnTasks, scopeOf } from './rows.js';
import { submitDrawing } from './submission.js';
import { taskView } from './view.js';
import { checkMode, MJ_CODE, MjRequestError, upstreamPath, type SubmitRoute } from './wire.js';

/*
 * The Midjourney routes, under /mj and /{mode}/mj: submissions go upstream through the task framework; task reads
 * are answered from this gateway's own rows, only the caller's (and, for a token pinned to a channel, that
 * channel's); images are streamed from the address a task's proxy reported.
 */

const SURFACE: TaskRouteSurface = { paths: ['/mj/*', '/:mode/mj/*'], errorBody: mjErrorBody, owns: (url) => isMidjourneyUrl(url) };

const SUBMIT_ROUTES: readonly SubmitRoute[] = ['imagine', 'change', 'simple-change', 'describe', 'blend', 'action', 'modal', 'shorten', 'upload-discord-images'];
/** Upstream ids one list-by-condition may ask for. */
const MAX_LIST_IDS = 1000;
const IMAGE_SEED_TIMEOUT_MS = 30_000;

/** `/mj/...` and `/{mode}/mj/...`, except the console's own `/api/mj/...`. */
export function isMidjourneyUrl(url: string): boolean {
  const path = url.split('?')[0];
  if (path === '/mj' || path.startsWith('/mj/')) return true;
  const m = /^\/([^/]+)\/mj(\/|$)/.exec(path);
  return m !== null && m[1] !== 'api';
}

type Params = { mode?: string; id?: string };

function jsonObject(body: unknown): Record<string, unknown> {
  if (Buffer.isBuffer(body) && body.length > 0) {
    try {
      const v: unknown = JSON.parse(body.toString('utf8'));
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // answered below
    }
  }
  throw new MjRequestError('请求体不是合法的 JSON 对象');
}

/** The route's path upstream (the query is not forwarded: the proxy reads none, and it may carry the caller's key). */
const upstreamPathOf = (request: FastifyRequest, rest: string): string => upstreamPath((request.params as Params).mode, rest);

/** The path of a submission route after `/mj`. */
const submitPath = (kind: SubmitRoute): string => (kind === 'swap' ? '/insight-face/swap' : `/submit/${kind}`);

export const midjourneyRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  prepareTaskRoutes(app, SURFACE);
  // Every route under /{mode}/mj, the unmatched ones too, takes only a known mode word.
  app.addHook('onRequest', async (request) => checkMode((request.params as Params).mode));

  /** Runs a route (the console's `/api/mj/...` paths never get here: see SURFACE.owns). */
  const route = (run: (request: FastifyRequest, reply: FastifyReply) => Promise<TaskReply | null>) => async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await run(request, reply);
    if (answer) return send(reply, answer);
    return reply;
  };

  for (const prefix of ['/mj', '/:mode/mj']) {
    const submit = (kind: SubmitRoute) =>
      route(async (request) =>
        submitDrawing(ctx, {
          caller: await authenticateToken(ctx, request),
          route: kind,
          body: jsonObject(request.body),
          upstreamPath: upstreamPathOf(request, submitPath(kind)),
          ip: request.ip,
        }),
      );
    for (const kind of SUBMIT_ROUTES) app.post(`${prefix}/submit/${kind}`, submit(kind));
    app.post(`${prefix}/insight-face/swap`, submit('swap'));

    app.get(
      `${prefix}/task/:id/fetch`,
      route(async (request) => {
        const caller = await authenticateToken(ctx, request);
        const row = await findOwnTask(ctx.db.kysely, scopeOf(caller), (request.params as Params).id ?? '');
        return row ? { status: 200, body: taskView(row, ctx.options) } : requestRefused('task_no_found');
      }),
    );

    app.post(
      `${prefix}/task/list-by-condition`,
      route(async (request) => {
        const caller = await authenticateToken(ctx, request);
        const ids = jsonObject(request.body).ids ?? [];
        if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) return requestRefused('ids 必须是任务 ID 的数组');
        if (ids.length > MAX_LIST_IDS) return requestRefused(`ids 最多 ${MAX_LIST_IDS} 个`);
        const rows = await listOwnTasks(ctx.db.kysely, scopeOf(caller), ids as string[]);
        return { status: 200, body: rows.map((row) => taskView(row, ctx.options)) };
      }),
    );

    app.get(
      `${prefix}/task/:id/image-seed`,
      route(async (request) => {
        const caller = await authenticateToken(ctx, request);
        const row = await findOwnTask(ctx.db.kysely, scopeOf(caller), (request.params as Params).id ?? '');
        if (!row) return requestRefused('task_no_found');
        // The seed is known to the proxy only: asked of the task's own channel, once the task is known to be the caller's.
        const channel = pinnedChannel(ctx, row.channel_id);
        const answer = await callTaskUpstream(
          ctx,
          channel,
          { url: `${resolveBaseUrl(channel)}${upstreamPathOf(request, `/task/${pathSegment(row.mj_id)}/image-seed`)}`, method: 'GET', headers: { 'mj-api-secret': channel.key } },
          IMAGE_SEED_TIMEOUT_MS,
        );
        if (answer.kind === 'unreachable' || answer.json === undefined) return mjReply(502, MJ_CODE.UNKNOWN_ERROR, '请求上游地址失败', 'upstream_error');
        return { status: answer.status, body: answer.json };
      }),
    );

    app.post(
      `${prefix}/notify`,
      route(async (request) => {
        const caller = await authenticateToken(ctx, request);
        const id = jsonObject(request.body).id;
        const row = typeof id === 'string' ? await findOwnTask(ctx.db.kysely, scopeOf(caller), id) : undefined;
        if (!row) return requestRefused('midjourney_task_not_found');
        // The callback's body is not trusted (anyone with the key could send one): it only prompts asking the task's
        // own proxy now, through the poller's path, instead of at the next round.
        const channel = ctx.routing.channel(row.channel_id);
        if (channel && row.status !== 'SUCCESS' && row.status !== 'FAILURE') await pollChannel(ctx, channel, [row]);
        return { status: 200, body: { code: MJ_CODE.SUBMITTED, description: '成功', result: row.mj_id } };
      }),
    );

    app.get(
      `${prefix}/image/:id`,
      route(async (request, reply) => {
        await streamImage(ctx, (request.params as Params).id ?? '', reply);
        return null;
      }),
    );

  }
  registerUnmatchedTaskPaths(app, SURFACE);
};
