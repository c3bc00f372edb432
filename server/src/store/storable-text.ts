/*
 * Text a caller or an upstream wrote, made storable on every database: PostgreSQL refuses a NUL in a text column,
 * and a lone surrogate is not UTF-8. A NUL is dropped and a lone surrogate becomes U+FFFD the same way on every
 * database, so a row reads back alike on SQLite, PostgreSQL and MySQL. For rows that record money (a charged task,
 * a consume log): refusing them would lose the record of a charge.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableText(s: string): string {
  const clean = s.includes('\u0000') ? s.replaceAll('\u0000', '') : s;
  return clean.replace(LONE_SURROGATE, '\uFFFD');
}

/** The row with each of its string values made storable (other values as they are). */
export function storableRow<T extends object>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) out[column] = typeof value === 'string' ? storableText(value) : value;
  return out as T;
}
