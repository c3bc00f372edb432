import dayjs from 'dayjs';
import { t } from './i18n';

/** The console's time format (tables and date pickers). */
export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Unix seconds as local time in the console's format. */
export function formatUnixTime(seconds: number): string {
  return dayjs.unix(seconds).format(TIME_FORMAT);
}

/** An expiry in unix seconds; -1 means never. */
export function formatExpiry(seconds: number, never = t('永不过期')): string {
  return seconds === -1 ? never : formatUnixTime(seconds);
}

/** Current time in unix seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Milliseconds as seconds with one decimal, e.g. 1530 -> '1.5 s'. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The cache hit rate: cache reads over prompt tokens (which include them), as a percent with one decimal; '-' when
 * nothing was prompted. docs/decisions.md ("Prompt tokens and the cache hit rate") says what each sum holds.
 */
export function formatCacheHitRate(cacheTokens: number, promptTokens: number): string {
  if (!(promptTokens > 0)) return '-';
  return `${((Math.min(cacheTokens, promptTokens) / promptTokens) * 100).toFixed(1)}%`;
}
