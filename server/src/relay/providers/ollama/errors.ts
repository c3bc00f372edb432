import type { ParsedUpstreamError } from '../../formats/openai/errors.js';
import { openAIErrorType } from '../../formats/openai/errors.js';

/** Ollama's native API answers errors as {"error": "<message>"} (404 for a model not pulled). */
export function parseOllamaError(status: number, body: string): ParsedUpstreamError {
  const type = status === 404 ? 'not_found_error' : openAIErrorType(status);
  try {
    const parsed = JSON.parse(body) as { error?: unknown } | null;
    const e = parsed?.error;
    if (typeof e === 'string' && e) return { message: e, type, code: '' };
    if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return { message: (e as { message: string }).message, type, code: '' };
  } catch {
    // not JSON
  }
  return { message: `bad response status code ${status}`, type, code: '' };
}
