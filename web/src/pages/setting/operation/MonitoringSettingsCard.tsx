import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  {
    key: 'ChannelDisableThreshold',
    kind: 'number',
    min: 0,
    unit: '秒',
    label: '最长响应时间',
    extra: '测试所有渠道时，响应超过此时间的渠道将被自动禁用',
  },
  { key: 'QuotaRemindThreshold', kind: 'number', min: 0, integer: true, label: '额度提醒阈值', extra: '低于此额度时将发送邮件提醒用户' },
  { key: 'AutomaticDisableChannelEnabled', kind: 'switch', label: '失败时自动禁用通道' },
  { key: 'AutomaticEnableChannelEnabled', kind: 'switch', label: '成功时自动启用通道' },
  {
    key: 'AutomaticDisableKeywords',
    kind: 'lines',
    rows: 6,
    label: '自动禁用关键词',
    extra: '一行一个，不区分大小写；上游错误中包含这些关键词时自动禁用通道',
  },
];

/** The operation tab's monitoring card: when channels are disabled or enabled automatically, and the low-balance mail. */
export function MonitoringSettingsCard() {
  return <OptionFormCard title="监控设置" name="monitoring-settings" fields={FIELDS} saveLabel="保存监控设置" />;
}
