import type { Usage } from '../../types.js';
import { lastObjectAfterKey } from '../json-bytes.js';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** Claude usage fields as reported, each possibly absent (message_delta carries only what changed). */
export interface RawClaudeUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
  /** The writes by cache lifetime (cache_control ttl 5m or 1h). */
  cache_creation?: { ephemeral_5m_input_tokens?: unknown; ephemeral_1h_input_tokens?: unknown } | null;
}

/**
 * Claude usage as the relay's Usage. Claude's input_tokens leaves out cached tokens, so the prompt is input + cache
 * reads + cache writes; cachedTokens are the reads, cacheCreationTokens the writes (each billed at its own ratio),
 * cacheCreation1hTokens the writes to the one-hour cache among them.
 */
export function relayUsageFromClaude(raw: RawClaudeUsage): Usage {
  const read = num(raw.cache_read_input_tokens);
  const creation = num(raw.cache_creation_input_tokens);
  const usage: Usage = {
    promptTokens: num(raw.input_tokens) + read + creation,
    completionTokens: num(raw.output_tokens),
    cachedTokens: read,
    cacheCreationTokens: creation,
  };
  const oneHour = Math.min(num(raw.cache_creation?.ephemeral_1h_input_tokens), creation);
  if (oneHour > 0) usage.cacheCreation1hTokens = oneHour;
  return usage;
}

const hasCounts = (u: unknown): u is RawClaudeUsage =>
  !!u && typeof u === 'object' && (typeof (u as RawClaudeUsage).input_tokens === 'number' || typeof (u as RawClaudeUsage).output_tokens === 'number');

/** The usage of a non-streamed Messages answer, or null when it has none. */
export function claudeUsageFromJson(body: Buffer): Usage | null {
  // Anthropic writes usage last: read the object after the last "usage" key, else parse the whole body.
  const fast = lastObjectAfterKey(body, 'usage');
  if (hasCounts(fast)) return relayUsageFromClaude(fast);
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { usage?: unknown };
    return hasCounts(parsed.usage) ? relayUsageFromClaude(parsed.usage) : null;
  } catch {
    return null;
  }
}

