import { authenticateToken } from '../auth.js';
import { parseGeminiBody, parseGeminiCall, splitModelAction } from '../formats/gemini/call.js';
import { geminiToChat } from '../formats/gemini/to-chat.js';
import type { GeminiRequest } from '../formats/gemini/types.js';
import { relayCall } from '../pipeline.js';
import { countChatPromptTokens } from '../tokenizer.js';
import { sendJson } from '../exchange.js';
import type { RelayEndpoint } from './endpoint.js';

/** countTokens takes either {contents} or {generateContentRequest: {...}}. */
function countTokens(body: Record<string, unknown>, model: string): number {
  const inner = (body.generateContentRequest ?? body) as GeminiRequest;
  const chat = geminiToChat({ ...inner, contents: inner.contents ?? [] }, model, false) as unknown as Record<string, unknown>;
  return countChatPromptTokens(chat, model);
}

/** Gemini's API: POST /v1beta/models/{model}:{action}; key from x-goog-api-key, ?key= or Bearer; errors in Gemini's shape. */
export const geminiEndpoints: RelayEndpoint[] = ['/v1beta', '/v1beta1', '/v1'].map((prefix) => ({
  path: `${prefix}/models/:modelAction`,
  format: 'gemini',
  async handle(ctx, ex, modelAction) {
    const caller = await authenticateToken(ctx, ex);
    const { model, action } = splitModelAction(modelAction);
    if (action === 'countTokens') {
      sendJson(ex.res, 200, { totalTokens: countTokens(parseGeminiBody('countTokens', ex.body), model) });
      return;
    }
    await relayCall(ctx, { call: parseGeminiCall(model, action, ex.body, ex.query.alt === 'sse'), caller, playground: false, ex });
  },
}));
