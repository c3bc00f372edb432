import type { OptionKey, OptionValue } from './defaults.js';

/*
 * What every option accepts: its type and range, and the console's name for it (refusals name the field the
 * operator edited). The option update route and the start both parse by this table (parse.ts): a value outside it
 * is refused with the name of the option, and a stored one falls back to the default with a warning. The mapped
 * type makes a rule mandatory for every option, of the kind its default's type allows.
 */

/** Numbers are written in decimal only (no hex, no exponent); integers stay where JavaScript counts exactly. */
export const SAFE_MAX = Number.MAX_SAFE_INTEGER;

interface Named {
  /** The console's name of the field ('' when it has none: the key is used). */
  label: string;
}
export interface BooleanRule extends Named {
  type: 'boolean';
}
export interface NumberRule extends Named {
  type: 'integer' | 'decimal';
  min: number;
  max: number;
}
export interface TextRule extends Named {
  type: 'text';
  /** The only values allowed, when there are few. */
  choices?: readonly string[];
}
export interface JsonRule extends Named {
  type: 'json';
  /**
   * numbers: an object of numbers in a range; texts: an object of strings; object: any object; chats: a list of
   * {name: URL template} entries.
   */
  shape: { values: 'integer' | 'decimal'; min: number; max: number } | 'texts' | 'object' | 'chats';
}
export type OptionRule = BooleanRule | NumberRule | TextRule | JsonRule;

type RuleFor<V> = V extends boolean ? BooleanRule : V extends number ? NumberRule : V extends string ? TextRule : JsonRule;

const bool: BooleanRule = { type: 'boolean', label: '' };
const text: TextRule = { type: 'text', label: '' };
const int = (label: string, min: number, max = SAFE_MAX): NumberRule => ({ type: 'integer', label, min, max });
const decimal = (label: string, min: number, max = SAFE_MAX): NumberRule => ({ type: 'decimal', label, min, max });
const quota = (label: string): NumberRule => int(label, 0);
const ratios = (label: string): JsonRule => ({ type: 'json', label, shape: { values: 'decimal', min: 0, max: SAFE_MAX } });
const json = (label: string, shape: 'texts' | 'object' | 'chats'): JsonRule => ({ type: 'json', label, shape });

/** Days in a hundred years: retention beyond it means "keep". */
const DAYS_MAX = 36_500;
/** A timer's delay must stay under 2^31 ms (about 24.8 days); a day is the longest period an interval needs. */
const MINUTES_A_DAY = 1440;
const WEEK_SECONDS = 604_800;

export const OPTION_RULES: { [K in OptionKey]: RuleFor<OptionValue<K>> } = {
  TopUpLink: text,
  'general_setting.docs_link': text,
  QuotaPerUnit: int('单位美元额度', 1),
  RetryTimes: int('失败重试次数', 0, 100),
  SessionAffinityTTL: int('会话粘性时长（秒）', 0, WEEK_SECONDS),
  SessionAffinityGroupTTL: { type: 'json', label: '分组会话粘性时长', shape: { values: 'integer', min: 0, max: WEEK_SECONDS } },
  DisplayInCurrencyEnabled: bool,
  DisplayTokenStatEnabled: bool,
  DefaultCollapseSidebar: bool,
  DemoSiteEnabled: bool,
  SelfUseModeEnabled: bool,
  SystemName: text,
  Logo: text,
  Footer: text,
  Notice: text,
  About: text,
  HomePageContent: text,
  ServerAddress: text,
  PasswordLoginEnabled: bool,
  PasswordRegisterEnabled: bool,
  RegisterEnabled: bool,
  EmailVerificationEnabled: bool,
  EmailDomainRestrictionEnabled: bool,
  EmailAliasRestrictionEnabled: bool,
  EmailDomainWhitelist: text,
  SMTPServer: text,
  SMTPPort: int('SMTP 端口', 1, 65_535),
  SMTPSSLEnabled: bool,
  SMTPAccount: text,
  SMTPFrom: text,
  SMTPToken: text,
  GitHubOAuthEnabled: bool,
  GitHubClientId: text,
  GitHubClientSecret: text,
  WeChatAuthEnabled: bool,
  WeChatServerAddress: text,
  WeChatServerToken: text,
  WeChatAccountQRCodeImageURL: text,
  TelegramOAuthEnabled: bool,
  TelegramBotToken: text,
  TelegramBotName: text,
  TurnstileCheckEnabled: bool,
  TurnstileSiteKey: text,
  TurnstileSecretKey: text,
  WorkerUrl: text,
  WorkerValidKey: text,
  PayAddress: text,
  CustomCallbackAddress: text,
  EpayId: text,
  EpayKey: text,
  Price: decimal('充值价格', 0),
  MinTopUp: int('最低充值美元数量', 1),
  TopupGroupRatio: ratios('充值分组倍率'),
  QuotaForNewUser: quota('新用户初始额度'),
  PreConsumedQuota: quota('请求预扣费额度'),
  QuotaForInviter: quota('邀请新用户奖励额度'),
  QuotaForInvitee: quota('新用户使用邀请码奖励额度'),
  ModelRatio: ratios('模型倍率'),
  ModelPrice: ratios('模型固定价格'),
  CompletionRatio: ratios('模型补全倍率'),
  CacheRatio: ratios('缓存倍率'),
  CacheCreationRatio: ratios('缓存写入倍率'),
  CacheCreation1hRatio: ratios('1 小时缓存写入倍率'),
  GroupRatio: ratios('分组倍率'),
  UserUsableGroups: json('用户可选分组', 'texts'),
  DrawingEnabled: bool,
  TaskEnabled: bool,
  MjNotifyEnabled: bool,
  MjAccountFilterEnabled: bool,
  MjModeClearEnabled: bool,
  MjForwardUrlEnabled: bool,
  MjActionCheckSuccessEnabled: bool,
  DataExportEnabled: bool,
  DataExportInterval: int('数据看板更新间隔', 1, MINUTES_A_DAY),
  DataExportDefaultTime: { type: 'text', label: '', choices: ['hour', 'day', 'week'] },
  ChannelDisableThreshold: decimal('最长响应时间', 0, 86_400),
  QuotaRemindThreshold: quota('额度提醒阈值'),
  AutomaticDisableChannelEnabled: bool,
  AutomaticEnableChannelEnabled: bool,
  AutomaticDisableKeywords: text,
  CheckSensitiveEnabled: bool,
  CheckSensitiveOnPromptEnabled: bool,
  StopOnSensitiveEnabled: bool,
  SensitiveWords: text,
  StreamCacheQueueLength: int('流模式缓存队列长度', 0, 1_000_000),
  Chats: json('聊天配置', 'chats'),
  ChatLink: text,
  ChatLink2: text,
  LogConsumeEnabled: bool,
  LogRetentionDays: int('日志保留天数', 0, DAYS_MAX),
  QuotaDataRetentionDays: int('数据看板保留天数', 0, DAYS_MAX),
  ResponsesRetentionDays: int('响应保留天数', 0, DAYS_MAX),
  // Up to 1 GB for one response and 1 TB per user (fractions of a MB allowed): byte counts stay exact.
  ResponsesMaxResponseMB: decimal('单个响应保存上限（MB）', 0, 1024),
  ResponsesMaxUserMB: decimal('每用户响应保存上限（MB）', 0, 1_048_576),
  ModelRequestRateLimitEnabled: bool,
  ModelRequestRateLimitDurationMinutes: int('限制周期', 1, MINUTES_A_DAY),
  ModelRequestRateLimitCount: int('用户每周期最多请求次数', 0),
  ModelRequestRateLimitSuccessCount: int('用户每周期最多请求完成次数', 1),
  'claude.model_headers_settings': json('Claude 请求头设置', 'object'),
  'claude.default_max_tokens': { type: 'json', label: 'Claude 默认最大输出', shape: { values: 'integer', min: 1, max: SAFE_MAX } },
  'claude.thinking_adapter_enabled': bool,
  'claude.thinking_adapter_budget_tokens_percentage': decimal('Claude 思考预算占比', 0, 1),
  'gemini.safety_settings': json('Gemini 安全设置', 'texts'),
  'gemini.version_settings': json('Gemini 版本设置', 'texts'),
  'global.pass_through_request_enabled': bool,
};
