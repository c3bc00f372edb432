/*
 * Lenient readers for values as the three drivers return them from the incumbents' columns: integers as number,
 * bigint or decimal text, booleans as 0/1, true/false or 't'; JSON columns as text, Buffer or an already parsed
 * object; GORM's soft-delete datetimes as Date (MySQL, PostgreSQL) or text (SQLite).
 */

export type SourceRow = Record<string, unknown>;

export function int(v: unknown, fallback = 0): number {
  if (v === null || v === undefined || v === '') return fallback;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = typeof v === 'number' ? v : Number(typeof v === 'bigint' ? v : String(v).trim());
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

export function float(v: unknown, fallback = 0): number {
  if (v === null || v === undefined || v === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
}

export function text(v: unknown, fallback = ''): string {
  if (v === null || v === undefined) return fallback;
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function flag(v: unknown): number {
  if (typeof v === 'string') return ['1', 't', 'true'].includes(v.trim().toLowerCase()) ? 1 : 0;
  return int(v) !== 0 ? 1 : 0;
}

/** A GORM DeletedAt (datetime) as unix seconds; null stays null (not deleted). */
export function unixSeconds(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) return Math.floor(v.getTime() / 1000);
  if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
  // SQLite: "2024-05-01 12:00:00.123456789+08:00" (GORM's layout); Date.parse wants a T and at most milliseconds.
  const iso = String(v).trim().replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1');
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : Math.floor(Date.now() / 1000);
}

/** A JSON object stored as text, or null when the text is empty or not an object. */
export function jsonObject(v: unknown): Record<string, unknown> | null {
  if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) return Array.isArray(v) ? null : (v as Record<string, unknown>);
  const s = text(v).trim();
  if (s === '') return null;
  try {
    const parsed: unknown = JSON.parse(s);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Cuts a value to a column's width (the incumbents' columns are often unbounded text). */
export function clip(s: string, width: number): string {
  return s.length > width ? s.slice(0, width) : s;
}
