import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'ModelRequestRateLimitEnabled', kind: 'switch', label: '启用用户模型请求速率限制（可能会影响高并发性能）', wide: true },
  { key: 'ModelRequestRateLimitDurationMinutes', kind: 'number', min: 1, integer: true, unit: '分钟', label: '限制周期', extra: '频率限制的周期（分钟）' },
  { key: 'ModelRequestRateLimitCount', kind: 'number', min: 0, integer: true, unit: '次', label: '用户每周期最多请求次数', extra: '包括失败请求的次数，0代表不限制' },
  { key: 'ModelRequestRateLimitSuccessCount', kind: 'number', min: 1, integer: true, unit: '次', label: '用户每周期最多请求完成次数', extra: '只包括请求成功的次数' },
];

/**
 * The operation tab's rate-limit card: how many model calls a user may make per period, in all and successful
 * (the relay answers 429 past either; the console playground is not limited).
 */
export function RateLimitSettingsCard() {
  return <OptionFormCard title="模型请求速率限制" name="rate-limit-settings" fields={FIELDS} saveLabel="保存模型速率限制" />;
}
