import type { FastifyPluginAsync } from 'fastify';
import { authenticateToken } from '../auth.js';
import { parseJsonObject } from '../calls.js';
import { parseGeminiCall, splitModelAction } from '../formats/gemini/call.js';
import { geminiToChat } from '../formats/gemini/to-chat.js';
import type { GeminiRequest } from '../formats/gemini/types.js';
import { relayCall } from '../pipeline.js';
import { countChatPromptTokens } from '../tokenizer.js';

const config = { format: 'gemini' as const };

/** countTokens takes either {contents} or {generateContentRequest: {...}}. */
function countTokens(body: Record<string, unknown>, model: string): number {
  const inner = (body.generateContentRequest ?? body) as GeminiRequest;
  const chat = geminiToChat({ ...inner, contents: inner.contents ?? [] }, model, false) as unknown as Record<string, unknown>;
  return countChatPromptTokens(chat, model);
}

/** Gemini's API: POST /v1beta/models/{model}:{action}; key from x-goog-api-key, ?key= or Bearer; errors in Gemini's shape. */
export const geminiRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  for (const prefix of ['/v1beta', '/v1beta1', '/v1']) {
    app.post(`${prefix}/models/:modelAction`, { config }, async (request, reply) => {
      const caller = await authenticateToken(ctx, request);
      const { model, action } = splitModelAction((request.params as { modelAction: string }).modelAction);
      if (action === 'countTokens') {
        return { totalTokens: countTokens(parseJsonObject(request.body as Buffer | undefined), model) };
      }
      const call = parseGeminiCall(model, action, request.body as Buffer | undefined);
      await relayCall(ctx, { call, caller, playground: false, request, reply });
    });
  }
};
