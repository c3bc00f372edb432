import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'QuotaForNewUser', kind: 'number', min: 0, integer: true, label: '新用户初始额度', extra: '注册时赠送的额度', placeholder: '例如：100' },
  { key: 'PreConsumedQuota', kind: 'number', min: 0, integer: true, label: '请求预扣费额度', extra: '请求结束后多退少补', placeholder: '例如：500' },
  { key: 'QuotaForInviter', kind: 'number', min: 0, integer: true, label: '邀请新用户奖励额度', extra: '计入邀请人的邀请额度，划转后可用', placeholder: '例如：2000' },
  { key: 'QuotaForInvitee', kind: 'number', min: 0, integer: true, label: '新用户使用邀请码奖励额度', extra: '注册时填写邀请码的新用户获得', placeholder: '例如：1000' },
];

/**
 * The quota card of the operation tab: the starting quota of new users, the amount held back before a request is
 * settled and the invite rewards on both sides. All are raw quota units (500000 = $1), whole numbers, at least 0
 * (spec §5). The low-balance reminder lives in the monitoring card.
 */
export function QuotaSettingsCard() {
  return <OptionFormCard title="额度设置" name="quota-settings" fields={FIELDS} saveLabel="保存额度设置" />;
}
