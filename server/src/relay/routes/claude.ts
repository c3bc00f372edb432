import type { FastifyPluginAsync } from 'fastify';
import { authenticateToken } from '../auth.js';
import { countPromptTokens } from '../count-tokens.js';
import { parseClaudeCall, parseClaudeCountCall } from '../formats/claude/call.js';
import { relayCall } from '../pipeline.js';
import type { RelayEndpoint } from './endpoint.js';

const config = { format: 'claude' as const };

/** Anthropic's Messages API: key from x-api-key or Authorization Bearer, errors in Claude's shape. */
export const claudeEndpoints: RelayEndpoint[] = [
  {
    path: '/v1/messages',
    format: 'claude',
    async handle(ctx, ex) {
      const caller = await authenticateToken(ctx, ex);
      await relayCall(ctx, { call: parseClaudeCall(ex.body, ex.headers), caller, ex });
    },
  },
];

export const claudeRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // Counted by the upstream where it counts, else here; free, like Anthropic's.
  app.post('/v1/messages/count_tokens', { config }, async (request) => {
    const caller = await authenticateToken(ctx, request);
    const call = parseClaudeCountCall(request.body as Buffer | undefined, request.headers);
    return { input_tokens: await countPromptTokens(ctx, caller, call) };
  });
};
