import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

const FIELDS: readonly OptionField[] = [
  { key: 'TopUpLink', kind: 'text', url: true, label: '充值链接', placeholder: '例如发卡网站的购买链接', extra: '钱包页面的「购买兑换码」按钮打开此链接' },
  { key: 'general_setting.docs_link', kind: 'text', url: true, label: '文档地址', placeholder: '例如 https://docs.example.com' },
  { key: 'ChatLink', kind: 'text', url: true, label: '聊天页面链接', placeholder: '例如 ChatGPT Next Web 的部署地址', extra: '未配置聊天设置时，侧边栏的「聊天」打开此链接' },
  { key: 'ChatLink2', kind: 'text', url: true, label: '聊天页面 2 链接', placeholder: '例如 ChatGPT Next Web 的部署地址' },
  { key: 'QuotaPerUnit', kind: 'number', min: 1, integer: true, label: '单位美元额度', placeholder: '一单位货币能兑换的额度', extra: '默认 500000，即 1 美元 = 500000 额度' },
  { key: 'RetryTimes', kind: 'number', min: 0, integer: true, label: '失败重试次数', placeholder: '失败重试次数', extra: '请求失败时换用其他渠道重试的次数' },
  {
    key: 'SessionAffinityTTL',
    kind: 'number',
    min: 0,
    integer: true,
    label: '会话粘性时长（秒）',
    placeholder: '3600',
    extra: '同一会话（Claude Code、Codex 的会话标识，或请求中的 prompt_cache_key、user）的后续请求在此时长内发往上次应答的渠道与密钥，以命中上游的提示缓存；0 表示关闭',
  },
  { key: 'SessionAffinityGroupTTL', kind: 'json', shape: 'numberMap', label: '分组会话粘性时长', extra: '按分组覆盖上面的时长（秒），例如 {"vip": 7200, "default": 0}；0 表示该分组关闭' },
  { key: 'DisplayInCurrencyEnabled', kind: 'switch', label: '以货币形式显示额度' },
  { key: 'DisplayTokenStatEnabled', kind: 'switch', label: '额度查询接口返回令牌额度而非用户额度' },
  { key: 'DefaultCollapseSidebar', kind: 'switch', label: '默认折叠侧边栏' },
  { key: 'DemoSiteEnabled', kind: 'switch', label: '演示站点模式' },
  { key: 'SelfUseModeEnabled', kind: 'switch', label: '自用模式', extra: '开启后不限制：未设置价格的模型也可使用（按默认高倍率计费）' },
];

/** The operation tab's general card: links, the quota unit, retries and how quota and the sidebar are shown. */
export function GeneralOperationCard() {
  return <OptionFormCard title="通用设置" name="general-operation-settings" fields={FIELDS} saveLabel="保存通用设置" />;
}
