import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'CheckSensitiveEnabled', kind: 'switch', label: '启用屏蔽词过滤功能' },
  { key: 'CheckSensitiveOnPromptEnabled', kind: 'switch', label: '启用 Prompt 检查' },
  { key: 'StopOnSensitiveEnabled', kind: 'switch', label: '检测到屏蔽词时停止生成' },
  { key: 'SensitiveWords', kind: 'lines', rows: 6, label: '屏蔽词列表', extra: '一行一个屏蔽词，不需要符号分割', placeholder: '一行一个屏蔽词' },
];

/** The operation tab's sensitive-word card: the checks and the word list (one per line, blank lines dropped). */
export function SensitiveWordsCard() {
  return <OptionFormCard title="屏蔽词过滤设置" name="sensitive-word-settings" fields={FIELDS} saveLabel="保存屏蔽词过滤设置" />;
}
