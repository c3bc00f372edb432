import type { z } from 'zod';
import { fail } from '../lib/errors.js';

/** The console's response shape. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
}

export const ok = <T>(data?: T, message = ''): Envelope<T> => ({ success: true, message, data });

/** Validates a payload against a schema; a mismatch is a business error naming the first bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || '请求';
  throw fail(`无效的参数：${field}`);
}

/** Page number (0-based) and size from the query, clamped to sane bounds. */
export function paging(query: { p?: unknown; page_size?: unknown; size?: unknown }, fallbackSize = 10): { offset: number; limit: number } {
  const p = Math.max(0, Number.parseInt(String(query.p ?? '0'), 10) || 0);
  const rawSize = Number.parseInt(String(query.page_size ?? query.size ?? fallbackSize), 10) || fallbackSize;
  const limit = Math.min(100, Math.max(1, rawSize));
  return { offset: p * limit, limit };
}
