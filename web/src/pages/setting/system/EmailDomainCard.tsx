import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'EmailDomainRestrictionEnabled', kind: 'switch', label: '启用邮箱域名白名单' },
  { key: 'EmailAliasRestrictionEnabled', kind: 'switch', label: '启用邮箱别名限制（例如：ab.cd@gmail.com）' },
  { key: 'EmailDomainWhitelist', kind: 'tags', label: '允许的邮箱域名', placeholder: '输入域名后按回车添加', extra: '例如：gmail.com、qq.com' },
];

/** The system tab's e-mail domain card: which domains may register, so throwaway mailboxes cannot mass-register. */
export function EmailDomainCard() {
  return (
    <OptionFormCard
      title="配置邮箱域名白名单"
      name="email-domain-settings"
      description="用以防止恶意用户利用临时邮箱批量注册"
      fields={FIELDS}
      saveLabel="保存邮箱域名白名单设置"
    />
  );
}
