import type { ParsedUpstreamError } from '../../formats/openai/errors.js';
import { openAIErrorType } from '../../formats/openai/errors.js';
import type { LibraryAnswer } from './types.js';

/*
 * The library API refuses with {"success": false, "errCode": <n>, "message": "..."}, usually in an HTTP 200 answer.
 * An errCode that is an HTTP status is read as that status (401 a refused key); any other as the upstream's failure.
 */

function refusalOf(body: string): { code: number; message: string } | null {
  try {
    const parsed = JSON.parse(body) as LibraryAnswer | null;
    if (!parsed || typeof parsed !== 'object') return null;
    const code = typeof parsed.errCode === 'number' ? parsed.errCode : Number(parsed.errCode);
    if (parsed.success === false || (Number.isFinite(code) && code !== 0)) return { code: Number.isFinite(code) ? code : 0, message: typeof parsed.message === 'string' ? parsed.message : '' };
  } catch {
    // not JSON
  }
  return null;
}

const statusOfCode = (code: number): number => (code >= 400 && code <= 599 ? code : 500);

/** The status a refusal answered with 200 stands for; null when the body is an answer. */
export function libraryErrorStatus(body: string): number | null {
  const r = refusalOf(body);
  return r ? statusOfCode(r.code) : null;
}

export function parseLibraryError(status: number, body: string): ParsedUpstreamError {
  const r = refusalOf(body);
  const out: ParsedUpstreamError = { message: r?.message || `bad response status code ${status}`, type: openAIErrorType(status), code: r ? String(r.code) : '' };
  if (status === 401) out.credentials = true;
  return out;
}
