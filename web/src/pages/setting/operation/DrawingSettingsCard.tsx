import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'DrawingEnabled', kind: 'switch', label: '启用绘图功能' },
  { key: 'TaskEnabled', kind: 'switch', label: '启用异步任务功能' },
  { key: 'MjNotifyEnabled', kind: 'switch', label: '允许回调（会泄露服务器 IP 地址）' },
  { key: 'MjAccountFilterEnabled', kind: 'switch', label: '允许 AccountFilter 参数' },
  { key: 'MjForwardUrlEnabled', kind: 'switch', label: '开启之后将上游地址替换为服务器地址' },
  { key: 'MjModeClearEnabled', kind: 'switch', label: '开启之后会清除用户提示词中的 --fast 、--relax 以及 --turbo 参数' },
  { key: 'MjActionCheckSuccessEnabled', kind: 'switch', label: '检测必须等待绘图成功才能进行放大等操作' },
];

/** The operation tab's drawing card: the Midjourney and async-task switches (the sidebar follows at once). */
export function DrawingSettingsCard() {
  return <OptionFormCard title="绘图设置" name="drawing-settings" fields={FIELDS} saveLabel="保存绘图设置" />;
}
