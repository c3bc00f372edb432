import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'SMTPServer', kind: 'text', label: 'SMTP 服务器地址', placeholder: '例如：smtp.qq.com' },
  { key: 'SMTPPort', kind: 'number', min: 1, max: 65535, integer: true, label: 'SMTP 端口', placeholder: '默认: 587' },
  { key: 'SMTPAccount', kind: 'text', label: 'SMTP 账户', placeholder: '通常是邮箱地址' },
  { key: 'SMTPFrom', kind: 'text', label: 'SMTP 发送者邮箱', placeholder: '通常和邮箱地址保持一致' },
  { key: 'SMTPToken', kind: 'secret', label: 'SMTP 访问凭证' },
  { key: 'SMTPSSLEnabled', kind: 'switch', label: '启用 SMTP SSL' },
];

/** The system tab's SMTP card: the mail server used for verification codes, password resets and reminders. */
export function SmtpSettingsCard() {
  return (
    <OptionFormCard title="配置 SMTP" name="smtp-settings" description="用以支持系统的邮件发送" fields={FIELDS} saveLabel="保存 SMTP 设置" />
  );
}
