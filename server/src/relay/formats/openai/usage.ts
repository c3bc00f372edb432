import type { Usage } from '../../types.js';

interface RawUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
  total_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
  prompt_cache_hit_tokens?: unknown;
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
  return { promptTokens, completionTokens, cachedTokens };
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

const USAGE_KEY = Buffer.from('"usage"');

/**
 * The usage object of a JSON answer without parsing the whole answer: finds the last "usage" key and parses only the
 * object after it (braces matched outside strings). Null when there is none or it is not an object.
 */
export function usageFromJsonBytes(body: Buffer): Usage | null {
  const at = body.lastIndexOf(USAGE_KEY);
  if (at < 0) return null;
  let i = at + USAGE_KEY.length;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  if (body[i] !== 0x3a) return null; // ':'
  i++;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  if (body[i] !== 0x7b) return null; // '{'
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) {
      try {
        return readUsage(JSON.parse(body.subarray(start, i + 1).toString('utf8')));
      } catch {
        return null;
      }
    }
  }
  return null;
}
