import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Integer columns that may come back from a driver as bigint strings are normalised to number at the driver level. */
type Id = Generated<number>;

export interface UsersTable {
  id: Id;
  username: string;
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  oidc_id: string;
  access_token: string | null;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  setting: string;
  created_at: number;
  deleted_at: number | null;
  /** Raised to end every session of the account (auth/session.ts). */
  session_epoch: ColumnType<number, number | undefined, number>;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: number;
  model_limits_enabled: number;
  model_limits: string;
  allow_ips: string;
  used_quota: number;
  group: string;
  deleted_at: number | null;
}

export interface ChannelsTable {
  id: Id;
  type: number;
  key: string;
  openai_organization: string;
  test_model: string;
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string;
  other: string;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  used_quota: number;
  model_mapping: string;
  status_code_mapping: string;
  priority: number;
  auto_ban: number;
  other_info: string;
  tag: string;
  setting: string;
  param_override: string;
  max_input_tokens: number;
  /** Multi-key state (JSON text), NULL for a single-key channel (store/channel-keys.ts). */
  channel_info: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: number;
  priority: number;
  weight: number;
  tag: string;
}

export interface RedemptionsTable {
  id: Id;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  deleted_at: number | null;
}

export interface LogsTable {
  id: Id;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: number;
  channel_id: number;
  token_id: number;
  group: string;
  ip: string;
  other: string;
  /** Prompt tokens read from the provider's cache (included in prompt_tokens); 0 for other log types. */
  cache_tokens: ColumnType<number, number | undefined, number>;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface MidjourneysTable {
  id: Id;
  code: number;
  user_id: number;
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
  /** The token charged (0: none, or a row from before tokens were recorded). */
  token_id: number;
  /** What the charge took from the token's remaining quota (0 for an unlimited token). */
  token_quota: number;
}

/** Balance reserved by a call in flight (store/reservations.ts). */
export interface ReservationsTable {
  id: string;
  /** The process holding it: host/pid. */
  holder: string;
  user_id: number;
  token_id: number;
  amount: number;
  created_at: number;
}

/** One background job run by one node of a deployment: who holds it, and until when (ms). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

export interface TasksTable {
  id: Id;
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
  token_id: number;
  token_quota: number;
}

export interface QuotaDataTable {
  id: Id;
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
  /** Prompt tokens (cache reads included) and the cache reads among them: the hit rate's two sums. */
  prompt_tokens: ColumnType<number, number | undefined, number>;
  cache_tokens: ColumnType<number, number | undefined, number>;
}

export interface TopUpsTable {
  id: Id;
  user_id: number;
  amount: number;
  money: number;
  trade_no: string;
  /** The quota the order credits once paid (fixed when the order is made). */
  quota: number;
  payment_method: string;
  create_time: number;
  complete_time: number;
  status: string;
}

/** Responses the gateway made itself, kept for continuation (relay/formats/responses/store.ts). */
export interface ResponsesTable {
  id: string;
  user_id: number;
  created_at: number;
  /** 1 kept, 2 evicted (per-user limit), 3 too large to keep. */
  state: number;
  bytes: number;
  response: string;
  input: string;
}

/** Settlement batches written on a database server, so a batch whose commit was in doubt is never written twice. */
export interface SettlementBatchesTable {
  id: string;
  created_at: number;
}

/** Live codes and reset tokens mailed to users, one per purpose and address (auth/verification.ts). */
export interface EmailCodesTable {
  purpose: string;
  address: string;
  code: string;
  created_at: number;
  expires_at: number;
  attempts: ColumnType<number, number | undefined, number>;
}

/** One row per mail sent, by client address, for the per-address budget (auth/verification). */
export interface EmailSendsTable {
  id: Generated<number>;
  client: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  options: OptionsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  quota_data: QuotaDataTable;
  top_ups: TopUpsTable;
  responses: ResponsesTable;
  settlement_batches: SettlementBatchesTable;
  email_codes: EmailCodesTable;
  email_sends: EmailSendsTable;
  job_leases: JobLeasesTable;
  reservations: ReservationsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewToken = Insertable<TokensTable>;
export type TokenUpdate = Updateable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLog = Insertable<LogsTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type NewTopUp = Insertable<TopUpsTable>;

export type { ColumnType };
