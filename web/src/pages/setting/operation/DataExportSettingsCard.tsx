import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'DataExportEnabled', kind: 'switch', label: '启用数据看板（实验性）', wide: true },
  { key: 'DataExportInterval', kind: 'number', min: 1, integer: true, unit: '分钟', label: '数据看板更新间隔', extra: '设置过短会影响数据库性能' },
  {
    key: 'DataExportDefaultTime',
    kind: 'select',
    label: '数据看板默认时间粒度',
    extra: '仅修改展示粒度，统计精确到小时',
    choices: [
      { value: 'hour', label: '小时' },
      { value: 'day', label: '天' },
      { value: 'week', label: '周' },
    ],
  },
];

/**
 * The data dashboard card of the operation tab: whether usage is aggregated for the 数据看板 page (and its menu
 * item shows), how often the aggregation runs (minutes, at least 1) and the default time granularity of the page.
 */
export function DataExportSettingsCard() {
  return <OptionFormCard title="数据看板设置" name="data-export-settings" fields={FIELDS} saveLabel="保存数据看板设置" />;
}
