/** Channel response-time and status-info presentation (spec §4). */
import { t } from '../../lib/i18n';

/** Response-time colour: up to 1 s green, up to 3 s lime, up to 5 s yellow, above red. */
export function responseTimeColor(ms: number): 'green' | 'lime' | 'yellow' | 'red' {
  if (ms <= 1000) return 'green';
  if (ms <= 3000) return 'lime';
  if (ms <= 5000) return 'yellow';
  return 'red';
}

/** Seconds with two decimals, e.g. 1530 -> '1.53 秒'. */
export function responseTimeText(ms: number): string {
  return t('{seconds} 秒', { seconds: (ms / 1000).toFixed(2) });
}

export interface StatusInfo {
  status_reason?: string;
  /** Unix seconds. */
  status_time?: number;
}

/** other_info is JSON text; anything unreadable counts as empty. */
export function parseOtherInfo(raw: string | null | undefined): StatusInfo {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object') return {};
    const info = value as Record<string, unknown>;
    return {
      status_reason: typeof info.status_reason === 'string' ? info.status_reason : undefined,
      status_time: typeof info.status_time === 'number' ? info.status_time : undefined,
    };
  } catch {
    return {};
  }
}

/** Comma-joined wire list -> names (blank entries dropped). */
export function splitList(raw: string | null | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
