import type { Usage } from '../../types.js';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** Claude usage fields as reported, each possibly absent (message_delta carries only what changed). */
export interface RawClaudeUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
}

/**
 * Claude usage as the relay's Usage. Claude's input_tokens leaves out cached tokens, so the prompt is input + cache
 * reads + cache writes; cachedTokens are the reads, cacheCreationTokens the writes (each billed at its own ratio).
 */
export function relayUsageFromClaude(raw: RawClaudeUsage): Usage {
  const read = num(raw.cache_read_input_tokens);
  const creation = num(raw.cache_creation_input_tokens);
  return {
    promptTokens: num(raw.input_tokens) + read + creation,
    completionTokens: num(raw.output_tokens),
    cachedTokens: read,
    cacheCreationTokens: creation,
  };
}

const hasCounts = (u: unknown): u is RawClaudeUsage =>
  !!u && typeof u === 'object' && (typeof (u as RawClaudeUsage).input_tokens === 'number' || typeof (u as RawClaudeUsage).output_tokens === 'number');

/** The usage of a non-streamed Messages answer, or null when it has none. */
export function claudeUsageFromJson(body: Buffer): Usage | null {
  const fast = lastUsageObject(body);
  if (hasCounts(fast)) return relayUsageFromClaude(fast);
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { usage?: unknown };
    return hasCounts(parsed.usage) ? relayUsageFromClaude(parsed.usage) : null;
  } catch {
    return null;
  }
}

const USAGE_KEY = Buffer.from('"usage"');
const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Anthropic writes usage last, so the object after the last "usage" key is read without parsing the content before
 * it. When that guess fails (odd key order, "usage" inside a tool input), the caller parses the whole body.
 */
function lastUsageObject(body: Buffer): unknown {
  const at = body.lastIndexOf(USAGE_KEY);
  if (at < 0) return null;
  let i = at + USAGE_KEY.length;
  while (isSpace(body[i])) i++;
  if (body[i] !== 0x3a) return null; // ':'
  i++;
  while (isSpace(body[i])) i++;
  if (body[i] !== 0x7b) return null; // '{'
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) {
      try {
        return JSON.parse(body.subarray(start, i + 1).toString('utf8'));
      } catch {
        return null;
      }
    }
  }
  return null;
}
