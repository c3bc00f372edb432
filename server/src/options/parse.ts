import { OPTION_DEFAULTS, type OptionKey, type OptionValue } from './defaults.js';

export type ParseResult<K extends OptionKey> = { ok: true; value: OptionValue<K> } | { ok: false; message: string };

/** The console's names of the options, so a refusal reads like the field the operator edited. */
const LABELS: Partial<Record<OptionKey, string>> = {
  QuotaPerUnit: '单位美元额度',
  RetryTimes: '失败重试次数',
  SMTPPort: 'SMTP 端口',
  Price: '充值价格',
  MinTopUp: '最低充值美元数量',
  QuotaForNewUser: '新用户初始额度',
  PreConsumedQuota: '请求预扣费额度',
  QuotaForInviter: '邀请新用户奖励额度',
  QuotaForInvitee: '新用户使用邀请码奖励额度',
  DataExportInterval: '数据看板更新间隔',
  ChannelDisableThreshold: '最长响应时间',
  QuotaRemindThreshold: '额度提醒阈值',
  TopupGroupRatio: '充值分组倍率',
  ModelRatio: '模型倍率',
  CompletionRatio: '模型补全倍率',
  CacheRatio: '缓存倍率',
  GroupRatio: '分组倍率',
  ModelPrice: '模型固定价格',
  UserUsableGroups: '用户可选分组',
  Chats: '聊天配置',
  ModelRequestRateLimitDurationMinutes: '限制周期',
  ModelRequestRateLimitCount: '用户每周期最多请求次数',
  ModelRequestRateLimitSuccessCount: '用户每周期最多请求完成次数',
  LogRetentionDays: '日志保留天数',
  QuotaDataRetentionDays: '数据看板保留天数',
};

/** String options that take one of a few values. */
const CHOICES: Partial<Record<OptionKey, readonly string[]>> = {
  DataExportDefaultTime: ['hour', 'day', 'week'],
};

/** Numeric options with a lower bound (spec §5 Inputs: intervals ≥ 1, quotas and monitor fields ≥ 0). */
const MINIMUMS: Partial<Record<OptionKey, number>> = {
  QuotaPerUnit: 1,
  RetryTimes: 0,
  SMTPPort: 1,
  Price: 0,
  MinTopUp: 1,
  QuotaForNewUser: 0,
  PreConsumedQuota: 0,
  QuotaForInviter: 0,
  QuotaForInvitee: 0,
  DataExportInterval: 1,
  ChannelDisableThreshold: 0,
  QuotaRemindThreshold: 0,
  StreamCacheQueueLength: 0,
  ModelRequestRateLimitDurationMinutes: 1,
  ModelRequestRateLimitCount: 0,
  ModelRequestRateLimitSuccessCount: 1,
  LogRetentionDays: 0,
  QuotaDataRetentionDays: 0,
};

const INTEGER_KEYS = new Set<OptionKey>([
  'QuotaPerUnit', 'RetryTimes', 'SMTPPort', 'QuotaForNewUser', 'PreConsumedQuota', 'QuotaForInviter',
  'QuotaForInvitee', 'DataExportInterval', 'QuotaRemindThreshold', 'StreamCacheQueueLength',
  'ModelRequestRateLimitDurationMinutes', 'ModelRequestRateLimitCount', 'ModelRequestRateLimitSuccessCount',
  'LogRetentionDays', 'QuotaDataRetentionDays',
]);

/** Maps whose values must be non-negative numbers (ratios and prices). */
const NUMBER_MAPS = new Set<OptionKey>([
  'ModelRatio', 'ModelPrice', 'CompletionRatio', 'CacheRatio', 'GroupRatio', 'TopupGroupRatio', 'claude.default_max_tokens',
]);

const label = (key: OptionKey): string => LABELS[key] ?? key;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJson(key: OptionKey, raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const bad = `${label(key)}不是合法的 JSON 字符串`;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, message: bad };
  }
  const def = OPTION_DEFAULTS[key];
  if (Array.isArray(def)) {
    // Chats: a list of {name: URL template}, each entry naming at least one target.
    const isEntry = (item: unknown) =>
      isPlainObject(item) && Object.keys(item).length > 0 && Object.values(item).every((s) => typeof s === 'string');
    if (!Array.isArray(value) || !value.every(isEntry)) {
      return { ok: false, message: bad };
    }
    return { ok: true, value };
  }
  if (!isPlainObject(value)) return { ok: false, message: bad };
  if (NUMBER_MAPS.has(key)) {
    for (const [name, n] of Object.entries(value)) {
      if (typeof n !== 'number' || !Number.isFinite(n)) return { ok: false, message: bad };
      if (n < 0) return { ok: false, message: `${label(key)}中 ${name} 的值不能为负数` };
    }
  }
  if (key === 'UserUsableGroups' && !Object.values(value).every((s) => typeof s === 'string')) {
    return { ok: false, message: bad };
  }
  return { ok: true, value };
}

/** Turns the stored/submitted string into the option's typed value, or says why it cannot. */
export function parseOption<K extends OptionKey>(key: K, raw: string): ParseResult<K> {
  const def: unknown = OPTION_DEFAULTS[key];
  if (typeof def === 'boolean') {
    if (raw !== 'true' && raw !== 'false') return { ok: false, message: `${key} 的值必须是 true 或 false` };
    return { ok: true, value: (raw === 'true') as OptionValue<K> };
  }
  if (typeof def === 'number') {
    const n = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(n)) return { ok: false, message: `${label(key)}的值必须是数字` };
    if (INTEGER_KEYS.has(key) && !Number.isInteger(n)) return { ok: false, message: `${label(key)}的值必须是整数` };
    const min = MINIMUMS[key];
    if (min !== undefined && n < min) return { ok: false, message: `${label(key)}不能小于 ${min}` };
    return { ok: true, value: n as OptionValue<K> };
  }
  if (typeof def === 'object') {
    const r = parseJson(key, raw);
    return r.ok ? { ok: true, value: r.value as OptionValue<K> } : r;
  }
  const choices = CHOICES[key];
  if (choices && !choices.includes(raw)) return { ok: false, message: `${key} 的值必须是 ${choices.join('、')} 之一` };
  return { ok: true, value: raw as OptionValue<K> };
}

/** The stored string form of a typed value. */
export function serializeOption(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
