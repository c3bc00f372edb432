import type { FastifyPluginAsync } from 'fastify';
import { authenticateToken } from '../auth.js';
import { parseJsonCall, parseJsonObject, parseMultipartCall } from '../calls.js';
import { RelayError } from '../errors.js';
import { fastifyExchange } from '../exchange.js';
import { relayCall } from '../pipeline.js';
import type { Mode } from '../types.js';
import { guarded, type RelayEndpoint } from './endpoint.js';
import { formatOf, sendError } from './send-error.js';

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

/** Known OpenAI calls Switchyard does not relay yet: a clear 501 rather than a 404, to a caller whose key is good. */
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

/** OpenAI's endpoints that relay a call (the Responses API has its own file, responses.ts). */
export const openAIEndpoints: RelayEndpoint[] = [
  ...JSON_ENDPOINTS.map(([path, mode]): RelayEndpoint => ({
    path,
    format: 'openai',
    async handle(ctx, ex) {
      const caller = await authenticateToken(ctx, ex);
      await relayCall(ctx, { call: parseJsonCall(mode, ex.body), caller, ex });
    },
  })),
  ...MULTIPART_ENDPOINTS.map(([path, mode]): RelayEndpoint => ({
    path,
    format: 'openai',
    async handle(ctx, ex) {
      const caller = await authenticateToken(ctx, ex);
      const call = await parseMultipartCall(mode, ex.body, String(ex.headers['content-type'] ?? ''));
      await relayCall(ctx, { call, caller, ex });
    },
  })),
];

/** OpenAI's engine-style embeddings path and the OpenAI calls not relayed yet. */
export const openAIExtraRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // OpenAI's format, whatever headers come (errors Fastify raises before the handler are rendered by the config's format).
  const config = { format: 'openai' as const };
  // The engine-style embeddings path of older OpenAI clients: the model may come in the path instead of the body.
  app.post('/v1/engines/:model/embeddings', { config }, async (request, reply) => {
    const ex = fastifyExchange(request, reply);
    await guarded(ctx, ex, 'openai', async () => {
      const caller = await authenticateToken(ctx, ex);
      const body = parseJsonObject(ex.body);
      if (body.model === undefined || body.model === '') body.model = (request.params as { model: string }).model;
      const call = parseJsonCall('embeddings', Buffer.from(JSON.stringify(body)));
      await relayCall(ctx, { call, caller, ex });
    });
  });

  for (const [method, url] of NOT_IMPLEMENTED) {
    app.route({
      method: method as 'GET',
      url,
      handler: async (request, reply) => {
        // The key first, as on every relay path: a bad key hears 401, not what the gateway serves.
        await authenticateToken(ctx, request);
        sendError(reply, new RelayError(501, 'API not implemented', 'api_not_implemented'), formatOf(request));
      },
    });
  }
};
