import dayjs from 'dayjs';
import { LOG_TYPE, type LogDto } from '@switchyard/shared';
import type { LogQuery } from '../../api/log';
import { t } from '../../lib/i18n';

/** The fields of a log's `other` JSON the table reads. */
export interface LogOther {
  /** First-token time in ms (-1 or missing: none). */
  frt?: number;
  model_ratio?: number;
  completion_ratio?: number;
  group_ratio?: number;
  /** USD per call; -1 in ratio mode. */
  model_price?: number;
  /** Prompt tokens read from the provider's cache. */
  cache_tokens?: number;
  /** Prompt tokens written to it, and of those the ones written to Claude's one-hour cache. */
  cache_creation_tokens?: number;
  cache_creation_tokens_1h?: number;
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  /** Only in the admin view. */
  admin_info?: { use_channel?: unknown };
}

export function parseOther(text: string): LogOther {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as LogOther) : {};
  } catch {
    return {};
  }
}

/** Rows that carry a model, token and cost (consumption; 0 for old rows without a type). */
export const isConsume = (log: Pick<LogDto, 'type'>): boolean => log.type === LOG_TYPE.CONSUME || log.type === LOG_TYPE.UNKNOWN;

export type LatencyColor = 'green' | 'orange' | 'red';

/** Use time (spec §9): under 101 s green, under 300 s orange, else red. */
export function durationColor(seconds: number): LatencyColor {
  if (seconds < 101) return 'green';
  if (seconds < 300) return 'orange';
  return 'red';
}

/** First-token time (spec §9): under 3 s green, under 10 s orange, else red. */
export function firstTokenColor(ms: number): LatencyColor {
  const s = ms / 1000;
  if (s < 3) return 'green';
  if (s < 10) return 'orange';
  return 'red';
}

/** The first-token time of a streamed call in ms, or null when none was recorded. */
export function firstTokenMs(log: Pick<LogDto, 'is_stream'>, other: LogOther): number | null {
  if (!log.is_stream) return null;
  return typeof other.frt === 'number' && other.frt >= 0 ? other.frt : null;
}

/** The channels a call tried, in order (the retry chain); the final channel alone when no chain was recorded. */
export function channelChain(log: Pick<LogDto, 'channel'>, other: LogOther): number[] {
  const chain = other.admin_info?.use_channel;
  if (Array.isArray(chain)) {
    const ids = chain.map(Number).filter((n) => Number.isInteger(n) && n > 0);
    if (ids.length > 0) return ids;
  }
  return log.channel > 0 ? [log.channel] : [];
}

/** The pricing of a call as operators read it: '模型倍率 X，补全倍率 Y，分组倍率 Z' or '模型价格 X，分组倍率 Z'. */
export function ratioText(other: LogOther): string {
  const group = other.group_ratio ?? 1;
  if (typeof other.model_price === 'number' && other.model_price >= 0) return t('模型价格 {price}，分组倍率 {group}', { price: other.model_price, group });
  if (typeof other.model_ratio !== 'number') return '';
  return t('模型倍率 {model}，补全倍率 {completion}，分组倍率 {group}', {
    model: other.model_ratio,
    completion: other.completion_ratio ?? 1,
    group,
  });
}

/** A call's prompt-cache use as operators read it: '缓存读取 X' and '缓存写入 Y（其中 1 小时 Z）'; empty without any. */
export function cacheText(other: LogOther): string {
  const parts: string[] = [];
  if (other.cache_tokens) parts.push(t('缓存读取 {tokens}', { tokens: other.cache_tokens }));
  if (other.cache_creation_tokens) {
    parts.push(
      other.cache_creation_tokens_1h
        ? t('缓存写入 {tokens}（其中 1 小时 {hour}）', { tokens: other.cache_creation_tokens, hour: other.cache_creation_tokens_1h })
        : t('缓存写入 {tokens}', { tokens: other.cache_creation_tokens }),
    );
  }
  return parts.join('，');
}

/** The details column: the stored text, or for a consume row without one the ratios from `other`; then the cache use. */
export function detailText(log: Pick<LogDto, 'type' | 'content'>, other: LogOther): string {
  const text = log.content || (isConsume(log) ? ratioText(other) : '');
  const cache = isConsume(log) ? cacheText(other) : '';
  return cache ? (text ? `${text}，${cache}` : cache) : text;
}

export const LOG_TYPE_TAGS: Record<number, { label: string; color: string }> = {
  [LOG_TYPE.TOPUP]: { label: '充值', color: 'cyan' },
  [LOG_TYPE.CONSUME]: { label: '消费', color: 'green' },
  [LOG_TYPE.MANAGE]: { label: '管理', color: 'orange' },
  [LOG_TYPE.SYSTEM]: { label: '系统', color: 'purple' },
};
export const UNKNOWN_TYPE_TAG = { label: '未知', color: 'default' };

/** The type dropdown: 0 shows every type. */
export const LOG_TYPE_OPTIONS: ReadonlyArray<{ value: number; label: string }> = [
  { value: 0, label: '全部' },
  { value: LOG_TYPE.TOPUP, label: '充值' },
  { value: LOG_TYPE.CONSUME, label: '消费' },
  { value: LOG_TYPE.MANAGE, label: '管理' },
  { value: LOG_TYPE.SYSTEM, label: '系统' },
];

/** The default log window (spec §9): from the start of today to one hour ahead. */
export function defaultWindow(now: dayjs.Dayjs = dayjs()): [dayjs.Dayjs, dayjs.Dayjs] {
  return [now.startOf('day'), now.add(1, 'hour')];
}

/** What the filter form holds. */
export interface LogFilterValues {
  start?: dayjs.Dayjs | null;
  end?: dayjs.Dayjs | null;
  token_name?: string;
  model_name?: string;
  channel?: string;
  username?: string;
}

/** The query of the list and stat calls from the form and the type dropdown; admins also send channel and username. */
export function logQueryOf(values: LogFilterValues, type: number, admin: boolean): LogQuery {
  const query: LogQuery = {
    type,
    token_name: (values.token_name ?? '').trim(),
    model_name: (values.model_name ?? '').trim(),
    start_timestamp: values.start ? values.start.unix() : 0,
    end_timestamp: values.end ? values.end.unix() : 0,
  };
  if (admin) {
    query.username = (values.username ?? '').trim();
    const channel = Number.parseInt((values.channel ?? '').trim(), 10);
    query.channel = Number.isInteger(channel) && channel > 0 ? channel : '';
  }
  return query;
}
