/** Shapes of the console API, shared by the server and the console. */

export interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export interface UserDto {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  oidc_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  /** Present (non-null) only on soft-deleted accounts. */
  DeletedAt: number | null;
}

/** What login returns and what the console keeps under the `user` storage key. */
export interface LoginUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

export interface TokenDto {
  id: number;
  user_id: number;
  key: string;
  name: string;
  status: number;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
}

/** GET /api/status data. */
export interface StatusData {
  version: string;
  start_time: number;
  system_name: string;
  logo: string;
  footer_html: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  enable_drawing: boolean;
  enable_task: boolean;
  enable_data_export: boolean;
  chats: Array<Record<string, string>>;
  data_export_default_time: string;
  default_collapse_sidebar: boolean;
  mj_notify_enabled: boolean;
  chat_link: string;
  chat_link2: string;
  github_oauth: boolean;
  github_client_id: string;
  /** GitHub's sign-in site (GITHUB_OAUTH_URL): the console opens its authorize page. */
  github_oauth_url: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  telegram_oauth: boolean;
  telegram_bot_name: string;
  turnstile_check: boolean;
  turnstile_site_key: string;
  email_verification: boolean;
  server_address: string;
  top_up_link: string;
  min_topup: number;
  enable_online_topup: boolean;
  price: number;
  docs_link: string;
  display_token_stat: boolean;
  demo_site_enabled: boolean;
  /** Models without a price are allowed (billed at a high default ratio) instead of refused. */
  self_use_mode_enabled: boolean;
  /** True while the root account still has the default password 123456. */
  root_default_password: boolean;
  register_enabled: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  /** Always true: the first start creates root, so the established console's setup wizard never opens. */
  setup: boolean;
  /** Always true: settlements are written in batches (the established BATCH_UPDATE_ENABLED). */
  enable_batch_update: boolean;
  /** Sign-in methods of the established gateway not offered here: always off / empty. */
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  oidc_enabled: boolean;
  oidc_client_id: string;
  oidc_authorization_endpoint: string;
}

/** A channel as the console sees it. `key` is present only when one channel is read by id. */
export interface ChannelDto {
  id: number;
  type: number;
  key?: string;
  openai_organization: string;
  test_model: string;
  /** 1 enabled, 2 manually disabled, 3 auto-disabled (CHANNEL_STATUS). */
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  /** Milliseconds of the last test; 0 = never tested. */
  response_time: number;
  base_url: string;
  other: string;
  balance: number;
  balance_updated_time: number;
  /** Comma-joined. */
  models: string;
  /** Comma-joined. */
  group: string;
  used_quota: number;
  model_mapping: string;
  status_code_mapping: string;
  priority: number;
  /** 1 or 0. */
  auto_ban: number;
  /** JSON text: {status_reason, status_time}. */
  other_info: string;
  tag: string;
  setting: string;
  param_override: string;
  max_input_tokens: number;
  /** Multi-key channels only: the key pool's state (never the keys). */
  channel_info?: ChannelKeyPoolInfo;
}

/** A multi-key channel's `channel_info`, as the established gateway names it. Key indexes are text. */
export interface ChannelKeyPoolInfo {
  is_multi_key: boolean;
  multi_key_size: number;
  /** Index -> 2 disabled by hand, 3 disabled automatically; absent = enabled. */
  multi_key_status_list?: Record<string, number>;
  multi_key_disabled_reason?: Record<string, string>;
  multi_key_disabled_time?: Record<string, number>;
  multi_key_polling_index: number;
  multi_key_mode: string;
  /** Index -> the key's balance in USD at its last update (this project's addition; the incumbent ignores it). */
  multi_key_balance?: Record<string, number>;
  multi_key_balance_time?: Record<string, number>;
}

/** One key of a multi-key channel in POST /api/channel/multi_key/manage get_key_status: a preview, never the key. */
export interface ChannelKeyState {
  index: number;
  /** 1 enabled, 2 disabled by hand, 3 disabled automatically. */
  status: number;
  disabled_time?: number;
  reason?: string;
  key_preview: string;
  /** The key's balance in USD at its last update, and when (unix seconds); absent until asked. */
  balance?: number;
  balance_updated_time?: number;
}

/** get_key_status: one page of keys (filtered by status when asked) and the counts over all keys. */
export interface ChannelKeyPage {
  keys: ChannelKeyState[];
  total: number;
  page: number;
  page_size: number;
  total_pages: number;
  enabled_count: number;
  manual_disabled_count: number;
  auto_disabled_count: number;
}

/** One log row in the console. */
export interface LogDto {
  id: number;
  user_id: number;
  created_at: number;
  /** LOG_TYPE. */
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  is_stream: boolean;
  /** Channel id (0 in the self view). */
  channel: number;
  /** Channel name ('' in the self view). */
  channel_name: string;
  token_id: number;
  group: string;
  ip: string;
  /** JSON text: frt, model_ratio, completion_ratio, group_ratio, model_price, admin_info.use_channel (admin only). */
  other: string;
}

/** GET /api/log/ and /api/log/self/ data: a page plus where the next one starts ('' after the last). */
export interface LogPage extends Page<LogDto> {
  /** Pass as `cursor` (with p + 1) to fetch the next page by seek instead of by offset. */
  next_cursor: string;
  /** True when counting stopped at its cap: `total` is then a lower bound (more rows match). */
  total_capped: boolean;
}

/** GET /api/log/stat and /api/log/self/stat data. */
export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
  /** Over the same filter as quota: prompt tokens (cache reads included) and the cache reads among them. */
  prompt_tokens: number;
  cache_tokens: number;
}

/**
 * A drawing task (GET /api/mj/ and /api/mj/self/ items). submit_time, start_time and finish_time are the
 * Midjourney proxy's own values, in milliseconds; created_at is submit_time in seconds. progress is a percent
 * string ("100%"); buttons and properties are JSON text. The owner's view shows channel_id 0.
 */
export interface MidjourneyDto {
  id: number;
  created_at: number;
  user_id: number;
  code: number;
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string;
  status: string;
  progress: string;
  fail_reason: string;
  channel_id: number;
  quota: number;
  buttons: string;
  properties: string;
}

/**
 * An async (music) task (GET /api/task/ and /api/task/self items). Times are unix seconds; properties and data
 * (the upstream's raw answer) are JSON text. The owner's view shows channel_id 0.
 */
export interface TaskDto {
  id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  channel_id: number;
  quota: number;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  properties: string;
  data: string;
}

/**
 * One hour of one model's usage in the data dashboard (GET /api/data/ and /api/data/self): calls, tokens and quota,
 * summed over the users the call selects. `created_at` is the start of the hour (unix seconds).
 */
export interface QuotaDataDto {
  /** The selected user, 0 when summed over every user. */
  user_id: number;
  /** The selected user's name, '' when summed over every user. */
  username: string;
  model_name: string;
  created_at: number;
  count: number;
  token_used: number;
  quota: number;
  /** Prompt tokens (cache reads included) and the cache reads among them: cache_tokens / prompt_tokens is the hit rate. */
  prompt_tokens: number;
  cache_tokens: number;
}
