import dayjs, { type Dayjs } from 'dayjs';
import type { QuotaDataDto } from '@switchyard/shared';

/*
 * The dashboard's arithmetic: hourly rows from /api/data are summed into hour, day or week buckets of the
 * browser's time zone (weeks start on Monday), per model, with totals. Pure, so it is tested without a browser.
 */

export type Granularity = 'hour' | 'day' | 'week';
export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week'];

/** The data_export_default_time option as a granularity; anything else is the spec's default, hour. */
export function parseGranularity(value: unknown): Granularity {
  return GRANULARITIES.includes(value as Granularity) ? (value as Granularity) : 'hour';
}

const DAY = 86400;
/** The self view answers at most this span per call (the server says 时间跨度不能超过 1 个月 beyond it). */
export const SELF_MAX_SPAN_SECONDS = 30 * DAY;

export interface TimeRange {
  /** Unix seconds. */
  start: number;
  end: number;
}

/**
 * The window the page opens with: the last day by the hour, the last week by the day, the last month by the
 * week; it ends an hour ahead so the current hour is in it. The month stays within what the self view answers.
 */
export function defaultRange(granularity: Granularity, nowSeconds: number): TimeRange {
  const end = nowSeconds + 3600;
  const span = granularity === 'hour' ? DAY : granularity === 'day' ? 7 * DAY : SELF_MAX_SPAN_SECONDS;
  return { start: end - span, end };
}

function startOf(t: Dayjs, granularity: Granularity): Dayjs {
  if (granularity === 'hour') return t.startOf('hour');
  const day = t.startOf('day');
  if (granularity === 'day') return day;
  return day.subtract((day.day() + 6) % 7, 'day');
}

/** The start (unix seconds) of the bucket a moment falls in. */
export function bucketStart(unixSeconds: number, granularity: Granularity): number {
  return startOf(dayjs.unix(unixSeconds), granularity).unix();
}

/** The label of a bucket on the time axis: 05-14 13:00 by the hour, 2024-05-14 by the day or week (its Monday). */
export function bucketLabel(start: number, granularity: Granularity): string {
  return dayjs.unix(start).format(granularity === 'hour' ? 'MM-DD HH:00' : 'YYYY-MM-DD');
}

/** More buckets than this along the axis would be unreadable: then only buckets with data are drawn. */
const MAX_BUCKETS = 750;

function bucketsBetween(range: TimeRange, granularity: Granularity): number[] | null {
  const unit = granularity === 'hour' ? 'hour' : granularity === 'day' ? 'day' : 'week';
  const out: number[] = [];
  const last = bucketStart(range.end, granularity);
  for (let t = startOf(dayjs.unix(range.start), granularity); t.unix() <= last; t = t.add(1, unit)) {
    if (out.length >= MAX_BUCKETS) return null;
    out.push(t.unix());
  }
  return out;
}

export interface ModelUsage {
  model: string;
  quota: number;
  count: number;
  tokens: number;
  /** Prompt tokens (cache reads included) and the cache reads among them. */
  promptTokens: number;
  cacheTokens: number;
}

export interface Dashboard {
  /** Bucket starts along the time axis, oldest first. */
  buckets: number[];
  labels: string[];
  /** Per model, biggest quota first (then most calls, then name). */
  models: ModelUsage[];
  /** quota[m][b]: quota of models[m] in buckets[b]; count likewise. */
  quota: number[][];
  count: number[][];
  totals: { quota: number; count: number; tokens: number; promptTokens: number; cacheTokens: number };
}

/**
 * Sums the rows into buckets. With a range, every bucket of the range is on the axis (zero where nothing
 * happened) so gaps show as gaps; without one, or when the range holds too many buckets, only those with data.
 */
export function aggregate(rows: readonly QuotaDataDto[], granularity: Granularity, range?: TimeRange): Dashboard {
  const perModel = new Map<string, ModelUsage>();
  const cells = new Map<string, Map<number, { quota: number; count: number }>>();
  const seen = new Set<number>();
  const totals = { quota: 0, count: 0, tokens: 0, promptTokens: 0, cacheTokens: 0 };
  for (const row of rows) {
    const bucket = bucketStart(row.created_at, granularity);
    seen.add(bucket);
    let usage = perModel.get(row.model_name);
    if (!usage) {
      usage = { model: row.model_name, quota: 0, count: 0, tokens: 0, promptTokens: 0, cacheTokens: 0 };
      perModel.set(row.model_name, usage);
      cells.set(row.model_name, new Map());
    }
    usage.quota += row.quota;
    usage.count += row.count;
    usage.tokens += row.token_used;
    usage.promptTokens += row.prompt_tokens;
    usage.cacheTokens += row.cache_tokens;
    const byBucket = cells.get(row.model_name)!;
    const cell = byBucket.get(bucket) ?? { quota: 0, count: 0 };
    cell.quota += row.quota;
    cell.count += row.count;
    byBucket.set(bucket, cell);
    totals.quota += row.quota;
    totals.count += row.count;
    totals.tokens += row.token_used;
    totals.promptTokens += row.prompt_tokens;
    totals.cacheTokens += row.cache_tokens;
  }
  let buckets = range ? bucketsBetween(range, granularity) : null;
  if (buckets === null) buckets = [...seen].sort((a, b) => a - b);
  else {
    // Rows outside the range (the server includes the hour the range starts in) still get their bucket.
    const listed = new Set(buckets);
    if ([...seen].some((b) => !listed.has(b))) buckets = [...new Set([...buckets, ...seen])].sort((a, b) => a - b);
  }
  const models = [...perModel.values()].sort(
    (a, b) => b.quota - a.quota || b.count - a.count || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0),
  );
  const series = (pick: 'quota' | 'count') =>
    models.map((m) => {
      const byBucket = cells.get(m.model)!;
      return buckets.map((b) => byBucket.get(b)?.[pick] ?? 0);
    });
  return {
    buckets,
    labels: buckets.map((b) => bucketLabel(b, granularity)),
    models,
    quota: series('quota'),
    count: series('count'),
    totals,
  };
}

/** Calls and tokens per minute, averaged over the part of the range that has passed. */
export function averagePerMinute(totals: Pick<Dashboard['totals'], 'count' | 'tokens'>, range: TimeRange, nowSeconds: number): { rpm: number; tpm: number } {
  const minutes = (Math.min(range.end, nowSeconds) - range.start) / 60;
  if (!(minutes > 0)) return { rpm: 0, tpm: 0 };
  return { rpm: totals.count / minutes, tpm: totals.tokens / minutes };
}
