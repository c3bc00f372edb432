import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';

type Db = Kysely<Database>;

/** A log line that is not a relay consumption: top-up (1), manage (3) or system (4), see LOG_TYPE. */
export interface LogInput {
  userId: number;
  type: number;
  content: string;
  /** Looked up from the user when omitted. */
  username?: string;
  quota?: number;
}

/** Writes one manage / system / top-up log. Pass a transaction to make it part of the change it records. */
export async function recordLog(db: Db, entry: LogInput): Promise<void> {
  let username = entry.username;
  if (username === undefined) {
    const user = await db.selectFrom('users').select('username').where('id', '=', entry.userId).executeTakeFirst();
    username = user?.username ?? '';
  }
  await db
    .insertInto('logs')
    .values({
      user_id: entry.userId,
      created_at: nowSeconds(),
      type: entry.type,
      content: entry.content,
      username,
      token_name: '',
      model_name: '',
      quota: entry.quota ?? 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 0,
      is_stream: 0,
      channel_id: 0,
      token_id: 0,
      group: '',
      ip: '',
      other: '',
    })
    .execute();
}

export interface QuotaDisplayOptions {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

/**
 * A quota amount inside a log text, as operators of established gateways read it:
 * `＄1.000000 额度` when amounts show in currency, else `500000 点额度`.
 */
export function logQuota(quota: number, display: QuotaDisplayOptions): string {
  if (display.displayInCurrency) return `＄${(quota / (display.quotaPerUnit || 500000)).toFixed(6)} 额度`;
  return `${quota} 点额度`;
}
