import { authenticateToken } from '../auth.js';
import { countPromptTokens } from '../count-tokens.js';
import { parseGeminiCall, parseGeminiCountCall, splitModelAction } from '../formats/gemini/call.js';
import { relayCall } from '../pipeline.js';
import { sendJson } from '../exchange.js';
import type { RelayEndpoint } from './endpoint.js';

/** Gemini's API: POST /v1beta/models/{model}:{action}; key from x-goog-api-key, ?key= or Bearer; errors in Gemini's shape. */
export const geminiEndpoints: RelayEndpoint[] = ['/v1beta', '/v1beta1', '/v1'].map((prefix) => ({
  path: `${prefix}/models/:modelAction`,
  format: 'gemini',
  async handle(ctx, ex, modelAction) {
    const caller = await authenticateToken(ctx, ex);
    const { model, action } = splitModelAction(modelAction);
    if (action === 'countTokens') {
      sendJson(ex.res, 200, { totalTokens: await countPromptTokens(ctx, caller, parseGeminiCountCall(model, ex.body)) });
      return;
    }
    await relayCall(ctx, { call: parseGeminiCall(model, action, ex.body, ex.query.alt === 'sse'), caller, ex });
  },
}));
