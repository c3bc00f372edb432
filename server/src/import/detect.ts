import { hasColumn, type Catalog } from './catalog.js';

/*
 * Which gateway made the source, from its tables and columns (neither ships a version table we can trust:
 * setups.version is the build that first initialised the database). A database upgraded from one-api to new-api
 * keeps one-api's columns, so new-api's marks win: only new-api adds them.
 */

export type System = 'new-api' | 'one-api';

export interface Detected {
  system: System;
  /** Human description, e.g. "new-api (after April 2025: channels.channel_info, two_fas)". */
  description: string;
}

const REQUIRED = ['users', 'tokens', 'channels', 'options'];

const NEW_API_TABLES = ['setups', 'top_ups', 'tasks', 'midjourneys', 'quota_data'];
const NEW_API_COLUMNS: Array<[string, string]> = [
  ['users', 'aff_history'], ['users', 'setting'], ['users', 'deleted_at'], ['logs', 'other'], ['logs', 'token_id'],
  ['tokens', 'model_limits'], ['tokens', 'allow_ips'], ['abilities', 'weight'], ['channels', 'tag'], ['channels', 'auto_ban'],
];
const ONE_API_COLUMNS: Array<[string, string]> = [
  ['users', 'lark_id'], ['channels', 'config'], ['channels', 'system_prompt'], ['tokens', 'models'], ['tokens', 'subnet'],
  ['logs', 'elapsed_time'], ['logs', 'request_id'],
];
/** Marks of a new-api newer than the April 2025 schema (reference §7.4). */
const NEWER_TABLES = ['models', 'vendors', 'prefill_groups', 'passkey_credentials', 'two_fas', 'checkins', 'user_subscriptions'];
const NEWER_COLUMNS: Array<[string, string]> = [
  ['channels', 'channel_info'], ['channels', 'settings'], ['channels', 'header_override'], ['users', 'stripe_customer'],
  ['users', 'last_login_at'], ['tokens', 'cross_group_retry'], ['logs', 'ip'], ['top_ups', 'payment_method'],
];

export function detectSystem(catalog: Catalog): Detected {
  const missing = REQUIRED.filter((t) => !catalog.has(t));
  if (missing.length > 0) throw new Error(`not a new-api or one-api database: no table ${missing.join(', ')}`);
  if (catalog.has('settlement_batches') || hasColumn(catalog, 'users', 'aff_history_quota')) {
    throw new Error('this is a Switchyard database, not a new-api or one-api one: copy it with the database\'s own backup tools');
  }
  const marks = (cols: Array<[string, string]>) => cols.filter(([t, c]) => hasColumn(catalog, t, c)).map(([t, c]) => `${t}.${c}`);
  const newApi = [...NEW_API_TABLES.filter((t) => catalog.has(t)), ...marks(NEW_API_COLUMNS)];
  const oneApi = marks(ONE_API_COLUMNS);
  if (newApi.length > 0) {
    const newer = [...marks(NEWER_COLUMNS), ...NEWER_TABLES.filter((t) => catalog.has(t))];
    const era = newer.length > 0 ? `after April 2025: ${newer.join(', ')}` : 'up to April 2025';
    const hybrid = oneApi.length > 0 ? `; upgraded from one-api (${oneApi.join(', ')} ignored)` : '';
    return { system: 'new-api', description: `new-api (${era}${hybrid})` };
  }
  if (oneApi.length > 0) return { system: 'one-api', description: `one-api (${oneApi.join(', ')})` };
  return { system: 'one-api', description: 'one-api (an early version: none of the later columns)' };
}
