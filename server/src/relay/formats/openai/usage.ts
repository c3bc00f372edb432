import { lastObjectAfterKey } from '../json-bytes.js';
import type { Usage } from '../../types.js';
import type { ChatUsage } from './chat.js';

interface RawUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
  total_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
  prompt_cache_hit_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_creation?: { ephemeral_1h_input_tokens?: unknown } | null;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** OpenAI usage (also the input/output naming some compatible servers use), or null when absent or empty. */
export function readUsage(raw: unknown): Usage | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as RawUsage;
  const promptTokens = num(u.prompt_tokens) || num(u.input_tokens);
  let completionTokens = num(u.completion_tokens) || num(u.output_tokens);
  if (!completionTokens && num(u.total_tokens) > promptTokens) completionTokens = num(u.total_tokens) - promptTokens;
  if (promptTokens === 0 && completionTokens === 0) return null;
  const cachedTokens = num(u.prompt_tokens_details?.cached_tokens) || num(u.prompt_cache_hit_tokens);
  const creation = num(u.cache_creation_input_tokens);
  if (creation === 0) return { promptTokens, completionTokens, cachedTokens };
  const usage: Usage = { promptTokens, completionTokens, cachedTokens, cacheCreationTokens: creation };
  const oneHour = Math.min(num(u.cache_creation?.ephemeral_1h_input_tokens), creation);
  if (oneHour > 0) usage.cacheCreation1hTokens = oneHour;
  return usage;
}

/** The writes by cache lifetime in Claude's words, when some went to the one-hour cache (carried on converted paths). */
export function cacheLifetimes(u: Usage): Pick<ChatUsage, 'cache_creation'> {
  const oneHour = u.cacheCreation1hTokens ?? 0;
  if (oneHour === 0) return {};
  return { cache_creation: { ephemeral_5m_input_tokens: (u.cacheCreationTokens ?? 0) - oneHour, ephemeral_1h_input_tokens: oneHour } };
}

type Choice = {
  message?: { content?: unknown; reasoning_content?: unknown; tool_calls?: Array<{ function?: { name?: unknown; arguments?: unknown } }> };
  text?: unknown;
};

/** The generated text of a non-streamed answer, for counting when usage is missing. */
export function completionText(body: Record<string, unknown>): { text: string; toolCalls: number } {
  let text = '';
  let toolCalls = 0;
  const choices = Array.isArray(body.choices) ? (body.choices as Choice[]) : [];
  for (const c of choices) {
    if (typeof c.text === 'string') text += c.text;
    const m = c.message;
    if (!m) continue;
    if (typeof m.content === 'string') text += m.content;
    if (typeof m.reasoning_content === 'string') text += m.reasoning_content;
    for (const call of m.tool_calls ?? []) {
      toolCalls++;
      if (typeof call.function?.name === 'string') text += call.function.name;
      if (typeof call.function?.arguments === 'string') text += call.function.arguments;
    }
  }
  return { text, toolCalls };
}

/** The usage object of a JSON answer without parsing the whole answer; null when there is none. */
export function usageFromJsonBytes(body: Buffer): Usage | null {
  return readUsage(lastObjectAfterKey(body, 'usage'));
}

/** Relay usage in OpenAI's shape (what streams and converted answers report to OpenAI-format clients). */
export function chatUsageOf(u: Usage): ChatUsage {
  const out: ChatUsage = {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens },
  };
  if (u.cacheCreationTokens) out.cache_creation_input_tokens = u.cacheCreationTokens;
  return Object.assign(out, cacheLifetimes(u));
}
