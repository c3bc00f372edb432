/*
 * Every option key with its typed default. A DB row overrides the default; the type of the default decides how
 * the stored string is parsed (boolean "true"/"false", number, JSON object/array, or plain string).
 * Names are the ones operators of existing gateways know.
 */

const DEFAULT_CHATS: Array<Record<string, string>> = [
  { 'ChatGPT Next Web 官方示例': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
  { 'Lobe Chat 官方示例': 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}' },
  { 'AI as Workspace': 'https://aiaw.app/set-provider?provider={"type":"openai","settings":{"apiKey":"{key}","baseURL":"{address}/v1","compatibility":"strict"}}' },
  { 'AMA 问天': 'ama://set-api-key?server={address}&key={key}' },
  { OpenCat: 'opencat://team/join?domain={address}&token={key}' },
];

/** Ratio 1 = $2 per million input tokens. Built-in table; the ModelRatio option overrides it. */
export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  'gpt-4o': 1.25,
  'gpt-4o-2024-05-13': 2.5,
  'gpt-4o-2024-08-06': 1.25,
  'gpt-4o-2024-11-20': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4o-mini-2024-07-18': 0.075,
  'chatgpt-4o-latest': 2.5,
  'gpt-4': 15,
  'gpt-4-turbo': 5,
  'gpt-4-turbo-2024-04-09': 5,
  'gpt-4.1': 1,
  'gpt-4.1-mini': 0.2,
  'gpt-4.1-nano': 0.05,
  'gpt-4.5-preview': 37.5,
  'gpt-3.5-turbo': 0.25,
  'gpt-3.5-turbo-0125': 0.25,
  o1: 7.5,
  'o1-preview': 7.5,
  'o1-mini': 0.55,
  'o3-mini': 0.55,
  'o3-mini-high': 0.55,
  'o3-mini-low': 0.55,
  'o3-mini-medium': 0.55,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'text-embedding-ada-002': 0.05,
  'text-moderation-stable': 0.1,
  'text-moderation-latest': 0.1,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-hd': 15,
  'claude-3-5-sonnet-20240620': 1.5,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-7-sonnet-20250219': 1.5,
  'claude-3-5-haiku-20241022': 0.5,
  'claude-3-opus-20240229': 7.5,
  'claude-3-haiku-20240307': 0.125,
  'gemini-2.0-flash': 0.05,
  'gemini-1.5-pro-latest': 1.25,
  'gemini-2.5-pro-preview-03-25': 0.625,
  'deepseek-chat': 0.135,
  'deepseek-reasoner': 0.275,
  'command-r': 0.25,
  'command-r-plus': 1.5,
};

export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  'dall-e-3': 0.04,
  'imagen-3.0-generate-002': 0.03,
  'gpt-4-gizmo-*': 0.1,
  suno_music: 0.1,
  suno_lyrics: 0.01,
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  swap_face: 0.05,
  mj_upload: 0.05,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
};

const DEFAULT_AUTO_DISABLE_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
].join('\n');

export const OPTION_DEFAULTS = {
  // General (运营设置 › 通用)
  TopUpLink: '',
  'general_setting.docs_link': '',
  QuotaPerUnit: 500000,
  RetryTimes: 0,
  // Seconds an agent session's turns stay on the channel and key that answered its last one (0: off).
  SessionAffinityTTL: 3600,
  /** Per group, overriding SessionAffinityTTL (0 turns it off for the group). */
  SessionAffinityGroupTTL: {} as Record<string, number>,
  DisplayInCurrencyEnabled: true,
  DisplayTokenStatEnabled: true,
  DefaultCollapseSidebar: false,
  DemoSiteEnabled: false,
  SelfUseModeEnabled: false,
  // Site content (其他设置)
  SystemName: 'Switchyard',
  Logo: '',
  Footer: '',
  Notice: '',
  About: '',
  HomePageContent: '',
  ServerAddress: '',
  // Login and registration
  PasswordLoginEnabled: true,
  PasswordRegisterEnabled: true,
  RegisterEnabled: true,
  EmailVerificationEnabled: false,
  EmailDomainRestrictionEnabled: false,
  EmailAliasRestrictionEnabled: false,
  EmailDomainWhitelist: 'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  // SMTP
  SMTPServer: '',
  SMTPPort: 587,
  SMTPSSLEnabled: false,
  SMTPAccount: '',
  SMTPFrom: '',
  SMTPToken: '',
  // OAuth
  GitHubOAuthEnabled: false,
  GitHubClientId: '',
  GitHubClientSecret: '',
  WeChatAuthEnabled: false,
  WeChatServerAddress: '',
  WeChatServerToken: '',
  WeChatAccountQRCodeImageURL: '',
  TelegramOAuthEnabled: false,
  TelegramBotToken: '',
  TelegramBotName: '',
  // Captcha
  TurnstileCheckEnabled: false,
  TurnstileSiteKey: '',
  TurnstileSecretKey: '',
  // Image download worker
  WorkerUrl: '',
  WorkerValidKey: '',
  // Payment (epay)
  PayAddress: '',
  CustomCallbackAddress: '',
  EpayId: '',
  EpayKey: '',
  Price: 7.3,
  MinTopUp: 1,
  TopupGroupRatio: { default: 1, vip: 1, svip: 1 } as Record<string, number>,
  // Credit limits
  QuotaForNewUser: 0,
  PreConsumedQuota: 500,
  QuotaForInviter: 0,
  QuotaForInvitee: 0,
  // Ratios and pricing
  ModelRatio: DEFAULT_MODEL_RATIO,
  ModelPrice: DEFAULT_MODEL_PRICE,
  CompletionRatio: { 'gpt-4-gizmo-*': 2, 'gpt-4o-gizmo-*': 3, 'gpt-4-all': 2 } as Record<string, number>,
  CacheRatio: {} as Record<string, number>,
  CacheCreationRatio: {} as Record<string, number>,
  CacheCreation1hRatio: {} as Record<string, number>,
  GroupRatio: { default: 1, vip: 1, svip: 1 } as Record<string, number>,
  UserUsableGroups: { default: '默认分组', vip: 'vip分组' } as Record<string, string>,
  // Drawing and tasks
  DrawingEnabled: true,
  TaskEnabled: true,
  MjNotifyEnabled: false,
  MjAccountFilterEnabled: false,
  MjModeClearEnabled: false,
  MjForwardUrlEnabled: true,
  MjActionCheckSuccessEnabled: true,
  // Data dashboard
  DataExportEnabled: true,
  DataExportInterval: 5,
  DataExportDefaultTime: 'hour',
  // Monitoring
  ChannelDisableThreshold: 5,
  QuotaRemindThreshold: 1000,
  AutomaticDisableChannelEnabled: false,
  AutomaticEnableChannelEnabled: false,
  AutomaticDisableKeywords: DEFAULT_AUTO_DISABLE_KEYWORDS,
  // Sensitive words
  CheckSensitiveEnabled: true,
  CheckSensitiveOnPromptEnabled: true,
  StopOnSensitiveEnabled: true,
  SensitiveWords: 'test_sensitive',
  StreamCacheQueueLength: 0,
  // Chat presets and links
  Chats: DEFAULT_CHATS,
  ChatLink: '',
  ChatLink2: '',
  // Logs
  LogConsumeEnabled: true,
  /** Logs older than this many days are deleted by the log-retention job (0: kept for ever). */
  LogRetentionDays: 0,
  /** The data dashboard's hourly roll-ups (quota_data) older than this many days are deleted (0: kept for ever). */
  QuotaDataRetentionDays: 0,
  // Responses API state: responses the gateway converts are kept so clients can continue them by reference
  ResponsesRetentionDays: 30,
  /** A response whose response object and input together pass this is not kept (a later reference gets a 400). */
  ResponsesMaxResponseMB: 8,
  /** A user's kept responses beyond this are evicted oldest first (a later reference gets a 400). */
  ResponsesMaxUserMB: 256,
  // Rate limits
  ModelRequestRateLimitEnabled: false,
  ModelRequestRateLimitDurationMinutes: 1,
  ModelRequestRateLimitCount: 0,
  ModelRequestRateLimitSuccessCount: 1000,
  // Model settings
  'claude.model_headers_settings': {} as Record<string, unknown>,
  'claude.default_max_tokens': { default: 8192 } as Record<string, number>,
  'claude.thinking_adapter_enabled': true,
  'claude.thinking_adapter_budget_tokens_percentage': 0.8,
  'gemini.safety_settings': { default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_NONE' } as Record<string, string>,
  'gemini.version_settings': { default: 'v1beta', 'gemini-1.0-pro': 'v1' } as Record<string, string>,
  'global.pass_through_request_enabled': false,
};

export type OptionKey = keyof typeof OPTION_DEFAULTS;
export type OptionValue<K extends OptionKey> = (typeof OPTION_DEFAULTS)[K];
export type OptionValues = { [K in OptionKey]: OptionValue<K> };

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTION_DEFAULTS, key);

/** Keys whose values are secrets: never returned by GET /api/option/. */
export const isSecretKey = (key: string): boolean => /(Token|Secret|Key)$/.test(key);
