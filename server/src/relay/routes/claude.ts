import type { FastifyPluginAsync } from 'fastify';
import { authenticateToken } from '../auth.js';
import { parseClaudeCall, parseClaudeCountTokens } from '../formats/claude/call.js';
import { claudeToChat } from '../formats/claude/to-chat.js';
import type { ClaudeRequest } from '../formats/claude/types.js';
import { relayCall } from '../pipeline.js';
import { countChatPromptTokens } from '../tokenizer.js';
import type { RelayEndpoint } from './endpoint.js';

const config = { format: 'claude' as const };

/** Anthropic's Messages API: key from x-api-key or Authorization Bearer, errors in Claude's shape. */
export const claudeEndpoints: RelayEndpoint[] = [
  {
    path: '/v1/messages',
    format: 'claude',
    async handle(ctx, ex) {
      const caller = await authenticateToken(ctx, ex);
      await relayCall(ctx, { call: parseClaudeCall(ex.body, ex.headers), caller, playground: false, ex });
    },
  },
];

export const claudeRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // Counted here with the same tokenizer that bills answers without usage; free, like Anthropic's.
  app.post('/v1/messages/count_tokens', { config }, async (request) => {
    await authenticateToken(ctx, request);
    const body = parseClaudeCountTokens(request.body as Buffer | undefined);
    const chat = claudeToChat(body as unknown as ClaudeRequest) as unknown as Record<string, unknown>;
    return { input_tokens: countChatPromptTokens(chat, body.model as string) };
  });
};
