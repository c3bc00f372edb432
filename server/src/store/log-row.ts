import type { NewLog } from '../db/schema.js';
import { storableText } from './storable-text.js';

/*
 * A log row the database would refuse, made acceptable. Rows are built from facts captured when a call arrives, so
 * a refusal means a bug or a value out of the columns' range (a 300-character model name on PostgreSQL, a NUL byte,
 * a token count past 2^31); either way the row must still be written — it is the record of a charge.
 */

/** varchar lengths of the logs table (migration 001). */
const TEXT_LIMITS: Record<string, number> = { username: 64, token_name: 64, model_name: 255, group: 64, ip: 64 };
/** TEXT columns: MySQL's TEXT holds 65,535 bytes; a quarter of that in characters is safe for any UTF-8. */
const LONG_TEXT = ['content', 'other'];
const LONG_TEXT_CHARS = 16_000;
const INT32 = ['user_id', 'type', 'prompt_tokens', 'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'token_id'];
const INT64 = ['created_at', 'quota'];
const INT32_MAX = 2_147_483_647;

function text(value: unknown, limit: number): string {
  const s = storableText(typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
  return s.length > limit ? s.slice(0, limit) : s;
}

function integer(value: unknown, max: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return 0;
  return Math.min(max, Math.max(-max, Math.round(n)));
}

/** The row with every column of the type and size its column takes; `changed` names what had to change. */
export function repairLogRow(row: NewLog): { row: NewLog; changed: string[] } {
  const source = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const changed: string[] = [];
  const put = (column: string, value: unknown) => {
    out[column] = value;
    if (value !== source[column]) changed.push(column);
  };
  for (const column of INT32) put(column, integer(source[column], INT32_MAX));
  for (const column of INT64) put(column, integer(source[column], Number.MAX_SAFE_INTEGER));
  for (const [column, limit] of Object.entries(TEXT_LIMITS)) put(column, text(source[column], limit));
  for (const column of LONG_TEXT) put(column, text(source[column], LONG_TEXT_CHARS));
  // `other` is JSON the console parses; a cut one is replaced by an empty object rather than stored broken.
  if (out.other !== source.other && out.other !== '') {
    try {
      JSON.parse(out.other as string);
    } catch {
      out.other = '{}';
    }
  }
  return { row: out as unknown as NewLog, changed };
}
