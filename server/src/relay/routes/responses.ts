import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { authenticateToken } from '../auth.js';
import { RelayError } from '../errors.js';
import { fastifyExchange, sendJson } from '../exchange.js';
import { parseResponsesCall } from '../formats/responses/call.js';
import { parseCompactCall } from '../formats/responses/compact.js';
import { STATE, keeperLimitsMB, type Found } from '../formats/responses/store.js';
import { beginTurn } from '../formats/responses/turn.js';
import { relayCall } from '../pipeline.js';
import type { ClientCall } from '../types.js';
import { unmatchedPathError } from './edge-errors.js';
import { guarded, type RelayEndpoint } from './endpoint.js';

/*
 * OpenAI's Responses API: POST /v1/responses relays a call (references to responses the gateway keeps resolved
 * first), POST /v1/responses/compact compacts a conversation (formats/responses/compact.ts); GET /v1/responses/{id}, GET /v1/responses/{id}/input_items and DELETE /v1/responses/{id} answer from the
 * responses the gateway keeps for the key's user. Another user's response, or one OpenAI keeps, is not found here.
 */

/** A relayed Responses call: the caller, its call, the references to kept responses resolved, then the relay. */
function turnEndpoint(path: string, parse: (raw: Buffer | undefined, headers: IncomingHttpHeaders) => ClientCall): RelayEndpoint {
  return {
    path,
    format: 'responses',
    async handle(ctx, ex) {
      const caller = await authenticateToken(ctx, ex);
      const call = parse(ex.body, ex.headers);
      await beginTurn(ctx.responses, caller.user.id, call);
      await relayCall(ctx, { call, caller, ex });
    },
  };
}

export const responsesEndpoints: RelayEndpoint[] = [turnEndpoint('/v1/responses', parseResponsesCall), turnEndpoint('/v1/responses/compact', parseCompactCall)];

const invalid = (message: string, code = 'invalid_request_error') => new RelayError(400, message, code, 'invalid_request_error');

function notFound(id: string): RelayError {
  return new RelayError(404, `未找到 ID 为 '${id}' 的响应：它不存在、已过期、已被删除，或创建时 store 为 false`, 'response_not_found', 'invalid_request_error');
}

/** The caller's kept response, or the error that says why there is none. */
async function keptResponse(ctx: AppContext, userId: number, id: string, withInput: boolean): Promise<Extract<Found, { state: 1 }>> {
  const found = await ctx.responses.findOne(userId, id, withInput);
  if (!found) throw notFound(id);
  if (found.state === STATE.stored) return found;
  const { maxResponseMB, maxUserMB } = keeperLimitsMB(ctx.responses.limitsNow());
  throw found.state === STATE.tooLarge
    ? invalid(`响应 '${id}' 超过单个响应 ${maxResponseMB} MB 的保存上限，未被保存`, 'response_too_large')
    : invalid(`响应 '${id}' 已在该用户保存的响应超过 ${maxUserMB} MB 时被清理`, 'response_evicted');
}

type Query = Record<string, unknown>;

/** A list page of input items as OpenAI pages them: `limit` 1-100 (20), `order` asc|desc (desc), `after` an item id. */
function inputItemsPage(items: Array<Record<string, unknown>>, query: Query) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('limit 必须是 1 到 100 之间的整数', 'invalid_value');
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalid('order 只能是 asc 或 desc', 'invalid_value');
  const ordered = order === 'asc' ? items : [...items].reverse();
  let start = 0;
  if (typeof query.after === 'string' && query.after) {
    const at = ordered.findIndex((item) => item.id === query.after);
    if (at < 0) throw invalid(`after 指向的条目 '${query.after}' 不在该响应的输入中`, 'invalid_value');
    start = at + 1;
  }
  const data = ordered.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: start + limit < ordered.length,
  };
}

/** A GET or DELETE on one kept response, answered in OpenAI's format. */
function route(ctx: AppContext, answer: (userId: number, id: string, query: Query) => Promise<unknown>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const ex = fastifyExchange(request, reply);
    await guarded(ctx, ex, 'responses', async () => {
      const caller = await authenticateToken(ctx, ex);
      const { id } = request.params as { id: string };
      sendJson(ex.res, 200, await answer(caller.user.id, id, ex.query as Query));
    });
  };
}

export const responsesRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  const retrieve = route(ctx, async (userId, id, query) => {
    // Streaming a finished response back (?stream=true) is for background responses, which are not relayed.
    if (query.stream === 'true') throw invalid('不支持以 stream=true 读取已保存的响应', 'unsupported_parameter');
    return (await keptResponse(ctx, userId, id, false)).response;
  });
  const inputItems = route(ctx, async (userId, id, query) => inputItemsPage((await keptResponse(ctx, userId, id, true)).input ?? [], query));
  const remove = route(ctx, async (userId, id) => {
    if (!(await ctx.responses.remove(userId, id))) throw notFound(id);
    return { id, object: 'response', deleted: true };
  });

  // A client of the Responses WebSocket mode (Codex with its built-in OpenAI provider) first asks to upgrade this
  // path; 426 sends it to HTTP at once, where a 404 has it try five more times with backoff (~6.5 s) before every
  // session's first turn. Other GETs of the bare path stay the gateway's 404.
  app.get('/v1/responses', { config: { format: 'responses' } }, async (request, reply) => {
    const ex = fastifyExchange(request, reply);
    await guarded(ctx, ex, 'responses', async () => {
      await authenticateToken(ctx, ex);
      if (!/\bwebsocket\b/i.test(String(request.headers.upgrade ?? ''))) throw unmatchedPathError(request.method, request.url);
      throw new RelayError(426, 'Responses 的 WebSocket 传输暂不支持，请改用 HTTP：POST /v1/responses', 'websocket_not_supported', 'invalid_request_error');
    });
  });
  app.get('/v1/responses/:id', { config: { format: 'responses' } }, (request, reply) => retrieve(request, reply));
  app.get('/v1/responses/:id/input_items', { config: { format: 'responses' } }, (request, reply) => inputItems(request, reply));
  app.delete('/v1/responses/:id', { config: { format: 'responses' } }, (request, reply) => remove(request, reply));
};
