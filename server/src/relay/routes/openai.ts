import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { authenticate } from '../../auth/guard.js';
import { authenticateToken, type Caller } from '../auth.js';
import { parseJsonCall, parseMultipartCall } from '../calls.js';
import { RelayError } from '../errors.js';
import { parseResponsesCall } from '../formats/responses/call.js';
import { relayCall } from '../pipeline.js';
import type { Mode } from '../types.js';
import { sendError } from './send-error.js';

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

/** OpenAI's endpoints (and the console playground, which speaks OpenAI's chat). */
export const openAIRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  for (const [url, mode] of JSON_ENDPOINTS) {
    app.post(url, async (request, reply) => {
      const caller = await authenticateToken(ctx, request);
      const call = parseJsonCall(mode, request.body as Buffer | undefined);
      await relayCall(ctx, { call, caller, playground: false, request, reply });
    });
  }

  for (const [url, mode] of MULTIPART_ENDPOINTS) {
    app.post(url, async (request, reply) => {
      const caller = await authenticateToken(ctx, request);
      const call = await parseMultipartCall(mode, request.body as Buffer | undefined, String(request.headers['content-type'] ?? ''));
      await relayCall(ctx, { call, caller, playground: false, request, reply });
    });
  }

  app.post('/v1/responses', { config: { format: 'responses' } }, async (request, reply) => {
    const caller = await authenticateToken(ctx, request);
    const call = parseResponsesCall(request.body as Buffer | undefined);
    await relayCall(ctx, { call, caller, playground: false, request, reply });
  });

  app.post('/pg/chat/completions', async (request, reply) => {
    const call = parseJsonCall('chat', request.body as Buffer | undefined);
    const caller = await playgroundCaller(app, request, call.json?.group);
    await relayCall(ctx, { call, caller, playground: true, request, reply });
  });

  for (const [method, url] of NOT_IMPLEMENTED) {
    app.route({
      method: method as 'GET',
      url,
      handler: async (_request, reply) => sendError(reply, new RelayError(501, 'API not implemented', 'api_not_implemented')),
    });
  }
};
