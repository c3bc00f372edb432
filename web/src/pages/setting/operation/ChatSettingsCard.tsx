import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  {
    key: 'Chats',
    kind: 'json',
    shape: 'chatList',
    label: '聊天配置',
    extra: '链接中的 {key} 将自动替换为 sk-xxxx，{address} 将自动替换为系统设置的服务器地址，末尾不带 / 和 /v1',
  },
];

/** The operation tab's chat card: the chat targets offered from the sidebar and the token list, as JSON. */
export function ChatSettingsCard() {
  return <OptionFormCard title="聊天设置" name="chat-settings" fields={FIELDS} saveLabel="保存聊天设置" failureMessage="请检查输入" />;
}
