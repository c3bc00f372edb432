import { bad, parseJsonObject, positiveInt } from '../../calls.js';
import { RelayError } from '../../errors.js';
import type { ClientCall } from '../../types.js';
import { camelCaseFields } from './field-names.js';

/** The actions of POST /v1beta/models/{model}:{action} that are relayed (countTokens is answered locally). */
export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents' | 'countTokens';

const ACTIONS: readonly GeminiAction[] = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents', 'countTokens'];

/** `gemini-2.0-flash:generateContent` (also `models/`-prefixed) into model and action. */
export function splitModelAction(segment: string): { model: string; action: GeminiAction } {
  const at = segment.lastIndexOf(':');
  const model = decodeURIComponent(at > 0 ? segment.slice(0, at) : segment).replace(/^models\//, '').trim();
  const action = at > 0 ? segment.slice(at + 1) : '';
  if (!model) throw bad('model is required', 'model_required');
  if (!(ACTIONS as readonly string[]).includes(action)) throw new RelayError(404, `Method ${action || '(none)'} is not supported`, 'not_found', 'NOT_FOUND');
  return { model, action: action as GeminiAction };
}

/** A Gemini call, checked for the fields Gemini requires. */
export function parseGeminiCall(model: string, action: GeminiAction, raw: Buffer | undefined): ClientCall {
  const body = parseJsonObject(raw);
  const embeddings = action === 'embedContent' || action === 'batchEmbedContents';
  if (action === 'embedContent' && (!body.content || typeof body.content !== 'object')) throw bad('content is required');
  if (action === 'batchEmbedContents' && (!Array.isArray(body.requests) || body.requests.length === 0)) throw bad('requests is required');
  if (!embeddings && !Array.isArray(body.contents)) throw bad('contents is required');
  // Google's REST accepts proto field names too (generation_config.max_output_tokens).
  const generation = (body.generationConfig ?? body.generation_config ?? {}) as { maxOutputTokens?: unknown; max_output_tokens?: unknown };
  return {
    format: 'gemini',
    mode: embeddings ? 'embeddings' : 'chat',
    model,
    stream: action === 'streamGenerateContent',
    json: body,
    raw,
    clientWantsStreamUsage: true,
    maxTokens: positiveInt(generation.maxOutputTokens ?? generation.max_output_tokens),
    single: action === 'embedContent',
  };
}

/** A countTokens body ({contents} or {generateContentRequest}) as the GenerateContentRequest it counts. */
export function parseGeminiCountCall(model: string, raw: Buffer | undefined): ClientCall {
  const body = camelCaseFields(parseJsonObject(raw));
  const inner = body.generateContentRequest;
  const req = (inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : body) as Record<string, unknown>;
  if (!Array.isArray(req.contents)) throw bad('contents is required');
  const { model: _model, ...json } = req;
  return { format: 'gemini', mode: 'chat', model, stream: false, json, raw: Buffer.from(JSON.stringify(json)), clientWantsStreamUsage: false, maxTokens: 0 };
}
