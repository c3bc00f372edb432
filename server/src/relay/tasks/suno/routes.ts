import type { FastifyPluginAsync } from 'fastify';
import { findOwnTask, listOwnTasks } from '../../../store/platform-tasks.js';
import { authenticateToken } from '../../auth.js';
import { RelayError } from '../../errors.js';
import { submitTask } from '../submit.js';
import { prepareTaskRoutes, registerUnmatchedTaskPaths, type TaskRouteSurface } from '../routes-base.js';
import { PLATFORM, submitToChannel } from './submit.js';
import { actionOf, errorBody, jsonObjectOf, modelOf, parseSubmission, promptTextsOf, SUCCESS_CODE, taskDto } from './wire.js';

/*
 * Suno's client routes: submissions go through the task framework (charged only when the upstream accepts);
 * fetches are answered from the gateway's own rows, the caller's only — the poller keeps them up to date.
 */

const SURFACE: TaskRouteSurface = { paths: ['/suno', '/suno/*'], errorBody };

/** Ids one fetch may ask for. */
export const MAX_FETCH_IDS = 1000;

const taskNotFound = () => new RelayError(400, '任务不存在', 'task_not_exist');

function fetchQuery(raw: Buffer | undefined): { ids: string[]; action: string } {
  const body = jsonObjectOf(raw);
  const ids = body.ids ?? [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw new RelayError(400, 'ids 必须是字符串数组', 'invalid_request');
  if (ids.length > MAX_FETCH_IDS) throw new RelayError(400, `ids 最多 ${MAX_FETCH_IDS} 个`, 'invalid_request');
  const action = body.action ?? '';
  if (typeof action !== 'string') throw new RelayError(400, 'action 必须是字符串', 'invalid_request');
  return { ids: [...new Set(ids as string[])], action: action.trim().toUpperCase() };
}

export const sunoRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  const db = ctx.db.kysely;
  prepareTaskRoutes(app, SURFACE);

  app.post<{ Params: { action: string } }>('/suno/submit/:action', async (request, reply) => {
    const caller = await authenticateToken(ctx, request);
    const action = actionOf(request.params.action);
    const submission = parseSubmission(request.body as Buffer | undefined, action);
    let channelId: number | undefined;
    if (submission.continues !== null) {
      // A continuation extends the caller's own task, on the channel (account) that made it.
      const origin = await findOwnTask(db, PLATFORM, caller.user.id, submission.continues);
      if (!origin) throw taskNotFound();
      channelId = origin.channel_id;
    }
    const answer = await submitTask(ctx, {
      caller,
      model: modelOf(action),
      action,
      ip: request.ip,
      channelId,
      promptTexts: (visit) => promptTextsOf(submission.body, visit),
      attempt: (channel) => submitToChannel(ctx, channel, action, submission),
    });
    return reply.status(answer.status).send(answer.body);
  });

  app.post('/suno/fetch', async (request) => {
    const caller = await authenticateToken(ctx, request);
    const { ids, action } = fetchQuery(request.body as Buffer | undefined);
    const rows = await listOwnTasks(db, PLATFORM, caller.user.id, ids, action);
    return { code: SUCCESS_CODE, message: '', data: rows.map(taskDto) };
  });

  app.get<{ Params: { id: string } }>('/suno/fetch/:id', async (request) => {
    const caller = await authenticateToken(ctx, request);
    const row = await findOwnTask(db, PLATFORM, caller.user.id, request.params.id);
    if (!row) throw taskNotFound();
    return { code: SUCCESS_CODE, message: '', data: taskDto(row) };
  });

  registerUnmatchedTaskPaths(app, SURFACE);
};
