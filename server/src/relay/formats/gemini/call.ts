import { bad, parseJsonObject, positiveInt } from '../../calls.js';
import { RelayError } from '../../errors.js';
import type { ClientCall } from '../../types.js';
import { geminiFieldError } from './errors.js';
import { camelCaseFields } from './field-names.js';
import { listsOfBatchEmbed, listsOfCountTokens, listsOfEmbed, listsOfGenerate } from './lists.js';
import { GEMINI_BODIES } from './schema.js';

/** The actions of POST /v1beta/models/{model}:{action} that are relayed (countTokens is answered locally). */
export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents' | 'countTokens';

const ACTIONS: readonly GeminiAction[] = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents', 'countTokens'];

const LISTS: Record<GeminiAction, (body: Record<string, unknown>) => void> = {
  generateContent: listsOfGenerate,
  streamGenerateContent: listsOfGenerate,
  countTokens: listsOfCountTokens,
  embedContent: listsOfEmbed,
  batchEmbedContents: listsOfBatchEmbed,
};

/**
 * `gemini-2.0-flash:generateContent` (also `models/`-prefixed) into model and action. The segment comes
 * percent-decoded already (by the router or the relay lane): decoding it again broke on a model name with a `%`.
 */
export function splitModelAction(segment: string): { model: string; action: GeminiAction } {
  const at = segment.lastIndexOf(':');
  const model = (at > 0 ? segment.slice(0, at) : segment).replace(/^models\//, '').trim();
  const action = at > 0 ? segment.slice(at + 1) : '';
  if (!model) throw bad('model is required', 'model_required');
  if (!(ACTIONS as readonly string[]).includes(action)) throw new RelayError(404, `Method ${action || '(none)'} is not supported`, 'not_found');
  return { model, action: action as GeminiAction };
}

/** A Gemini body checked against the action's documented shape, with single values of list fields made lists. */
export function parseGeminiBody(action: GeminiAction, raw: Buffer | undefined): Record<string, unknown> {
  const body = parseJsonObject(raw);
  const { check, request } = GEMINI_BODIES[action];
  const problem = check(body);
  if (problem) throw geminiFieldError(problem, request);
  LISTS[action](body);
  return body;
}

/**
 * A Gemini call. `sse`: the client asked for `alt=sse`; a streamGenerateContent without it is answered as Gemini's
 * REST API answers it, one JSON array whose elements arrive as they are generated.
 */
export function parseGeminiCall(model: string, action: GeminiAction, raw: Buffer | undefined, sse = true): ClientCall {
  const body = parseGeminiBody(action, raw);
  const embeddings = action === 'embedContent' || action === 'batchEmbedContents';
  if (action === 'embedContent' && (!body.content || typeof body.content !== 'object')) throw bad('content is required');
  if (action === 'batchEmbedContents' && (!Array.isArray(body.requests) || body.requests.length === 0)) throw bad('requests is required');
  if (!embeddings && !Array.isArray(body.contents)) throw bad('contents is required');
  // Google's REST accepts proto field names too (generation_config.max_output_tokens).
  const generation = (body.generationConfig ?? body.generation_config ?? {}) as { maxOutputTokens?: unknown; max_output_tokens?: unknown };
  const stream = action === 'streamGenerateContent';
  return {
    format: 'gemini',
    mode: embeddings ? 'embeddings' : 'chat',
    model,
    stream,
    json: body,
    raw,
    clientWantsStreamUsage: true,
    maxTokens: positiveInt(generation.maxOutputTokens ?? generation.max_output_tokens),
    single: action === 'embedContent',
    arrayStream: stream && !sse,
  };
}

/** A countTokens body ({contents} or {generateContentRequest}) as the GenerateContentRequest it counts. */
export function parseGeminiCountCall(model: string, raw: Buffer | undefined): ClientCall {
  const body = camelCaseFields(parseGeminiBody('countTokens', raw));
  const inner = body.generateContentRequest;
  const req = (inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : body) as Record<string, unknown>;
  if (!Array.isArray(req.contents)) throw bad('contents is required');
  const { model: _model, ...json } = req;
  return { format: 'gemini', mode: 'chat', model, stream: false, json, raw: Buffer.from(JSON.stringify(json)), clientWantsStreamUsage: false, maxTokens: 0 };
}
