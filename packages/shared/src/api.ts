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
  /** True while the root account still has the default password 123456. */
  root_default_password: boolean;
  register_enabled: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
}
