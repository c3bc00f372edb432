import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { authenticate } from '../auth/guard.js';
import { authenticateToken, type Caller } from './auth.js';
import { parseJsonCall, parseMultipartCall } from './calls.js';
import { RelayError } from './errors.js';
import { openAIErrorBody } from './formats/openai/errors.js';
import { relayCall } from './pipeline.js';
import type { Mode } from './types.js';

/** Client-facing endpoints in OpenAI's format. */
const JSON_ENDPOINTS: Array<[string, Mode]> = [
  ['/v1/chat/completions', 'chat'],
  ['/v1/completions', 'completions'],
  ['/v1/embeddings', 'embeddings'],
  ['/v1/moderations', 'moderations'],
  ['/v1/images/generations', 'images'],
  ['/v1/audio/speech', 'speech'],
  ['/v1/rerank', 'rerank'],
];

const MULTIPART_ENDPOINTS: Array<[string, Mode]> = [
  ['/v1/audio/transcriptions', 'transcriptions'],
  ['/v1/audio/translations', 'translations'],
];

/** Known OpenAI calls Switchyard does not relay yet: a clear 501 rather than a 404. */
const NOT_IMPLEMENTED: Array<[string, string]> = [
  ['POST', '/v1/images/edits'],
  ['POST', '/v1/images/variations'],
  ['GET', '/v1/files'],
  ['POST', '/v1/files'],
  ['DELETE', '/v1/files/:id'],
  ['GET', '/v1/files/:id'],
  ['GET', '/v1/files/:id/content'],
  ['POST', '/v1/fine-tunes'],
  ['GET', '/v1/fine-tunes'],
  ['DELETE', '/v1/models/:model'],
];

export function sendError(reply: FastifyReply, err: { status: number; message: string; type: string; code?: string }): void {
  if (reply.raw.headersSent) {
    reply.raw.end();
    return;
  }
  void reply.status(err.status).header('content-type', 'application/json; charset=utf-8').send(openAIErrorBody(err));
}

function toRelayError(error: FastifyError | AppError): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof AppError) return new RelayError(error.status === 200 ? 400 : error.status, error.message, error.code ?? 'invalid_request');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new RelayError(413, '请求体过大', 'request_too_large', 'invalid_request_error');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new RelayError(415, '不支持的 Content-Type', 'unsupported_media_type', 'invalid_request_error');
  if (typeof error.statusCode === 'number' && error.statusCode < 500) {
    return new RelayError(error.statusCode, error.message, 'invalid_request', 'invalid_request_error');
  }
  return new RelayError(500, '服务器内部错误', 'internal_error');
}

async function tokenCaller(app: FastifyInstance, request: FastifyRequest): Promise<Caller> {
  return authenticateToken(app.ctx, request);
}

/** The playground: signed-in console user (session + New-Api-User), the user's quota only, an optional group. */
async function playgroundCaller(app: FastifyInstance, request: FastifyRequest, requestedGroup: unknown): Promise<Caller> {
  const user = await authenticate(app, request, 'user');
  let group = user.group;
  if (typeof requestedGroup === 'string' && requestedGroup && requestedGroup !== user.group) {
    if (!Object.hasOwn(app.ctx.options.get('UserUsableGroups'), requestedGroup)) {
      throw new RelayError(403, `分组 ${requestedGroup} 不可用`, 'group_forbidden');
    }
    group = requestedGroup;
  }
  return { token: null, user, group, pinnedChannelId: null };
}

export const relayRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // Bodies arrive as bytes: the relay parses them itself (to answer in the caller's format) and forwards them untouched.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const err = toRelayError(error);
    if (err.status >= 500 && !(error instanceof RelayError)) request.log.error({ err: error }, 'relay error');
    sendError(reply, err);
  });

  for (const [url, mode] of JSON_ENDPOINTS) {
    app.post(url, async (request, reply) => {
      const caller = await tokenCaller(app, request);
      const call = parseJsonCall(mode, request.body as Buffer | undefined);
      await relayCall(ctx, { call, caller, playground: false, request, reply });
    });
  }

  for (const [url, mode] of MULTIPART_ENDPOINTS) {
    app.post(url, async (request, reply) => {
      const caller = await tokenCaller(app, request);
      const call = await parseMultipartCall(mode, request.body as Buffer | undefined, String(request.headers['content-type'] ?? ''));
      await relayCall(ctx, { call, caller, playground: false, request, reply });
    });
  }

  app.post('/pg/chat/completions', async (request, reply) => {
    const call = parseJsonCall('chat', request.body as Buffer | undefined);
    const caller = await playgroundCaller(app, request, call.json?.group);
    await relayCall(ctx, { call, caller, playground: true, request, reply });
  });

  app.get('/v1/models', async (request) => {
    const caller = await tokenCaller(app, request);
    const created = ctx.startTime;
    return { object: 'list', data: listableModels(app, caller).map((id) => ({ id, object: 'model', created, owned_by: 'switchyard' })) };
  });

  app.get('/v1/models/:model', async (request, reply) => {
    const caller = await tokenCaller(app, request);
    const { model } = request.params as { model: string };
    if (!listableModels(app, caller).includes(model)) {
      return sendError(reply, new RelayError(404, `The model '${model}' does not exist`, 'model_not_found', 'invalid_request_error'));
    }
    return { id: model, object: 'model', created: ctx.startTime, owned_by: 'switchyard' };
  });

  for (const [method, url] of NOT_IMPLEMENTED) {
    app.route({
      method: method as 'GET',
      url,
      handler: async (_request, reply) => sendError(reply, new RelayError(501, 'API not implemented', 'api_not_implemented')),
    });
  }
};

/** What a token may call: its model limits when on, else every model its group can reach. */
function listableModels(app: FastifyInstance, caller: Caller): string[] {
  const token = caller.token;
  if (token?.model_limits_enabled) {
    return token.model_limits
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
  }
  return app.ctx.routing.models([caller.group]);
}
