import dayjs from 'dayjs';
import { DEFAULT_NEW_TOKEN, type TokenDto } from '@switchyard/shared';
import type { TokenInput } from '../../api/token';

export const EXPIRY_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** What the drawer's form holds. */
export interface TokenFormValues {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  /** Empty means never expires. */
  expired: string;
  count: number;
  allow_ips: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  group: string;
}

export function newTokenValues(group: string): TokenFormValues {
  return {
    name: '',
    remain_quota: DEFAULT_NEW_TOKEN.remain_quota,
    unlimited_quota: DEFAULT_NEW_TOKEN.unlimited_quota,
    expired: '',
    count: 1,
    allow_ips: '',
    model_limits_enabled: false,
    model_limits: [],
    group,
  };
}

export function tokenToValues(token: TokenDto, fallbackGroup: string): TokenFormValues {
  return {
    name: token.name,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
    expired: token.expired_time === -1 ? '' : dayjs.unix(token.expired_time).format(EXPIRY_FORMAT),
    count: 1,
    allow_ips: token.allow_ips ?? '',
    model_limits_enabled: token.model_limits_enabled,
    model_limits: (token.model_limits ?? '').split(',').filter((m) => m !== ''),
    group: token.group || fallbackGroup,
  };
}

/** -1 for never, unix seconds for a date, null when the text is not a date. */
export function parseExpiry(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return -1;
  const d = dayjs(trimmed);
  return d.isValid() ? d.unix() : null;
}

/** Expiry presets: never, one hour, one day, one month (30 days). */
export const EXPIRY_PRESETS: ReadonlyArray<{ label: string; add: [number, 'hour' | 'day'] | null }> = [
  { label: '永不过期', add: null },
  { label: '一小时', add: [1, 'hour'] },
  { label: '一天', add: [1, 'day'] },
  { label: '一个月', add: [30, 'day'] },
];

export function presetExpiry(add: [number, 'hour' | 'day'] | null): string {
  return add === null ? '' : dayjs().add(add[0], add[1]).format(EXPIRY_FORMAT);
}

export function toInput(values: TokenFormValues, expiredTime: number, name: string): TokenInput {
  return {
    name,
    remain_quota: Math.trunc(Number(values.remain_quota) || 0),
    expired_time: expiredTime,
    unlimited_quota: values.unlimited_quota,
    model_limits_enabled: values.model_limits_enabled,
    model_limits: (values.model_limits ?? []).join(','),
    allow_ips: values.allow_ips ?? '',
    group: values.group ?? '',
  };
}

const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The random 6-character suffix batch-created tokens get from the second one on. */
export function randomSuffix(length = 6): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => SUFFIX_CHARS[b % SUFFIX_CHARS.length]).join('');
}
