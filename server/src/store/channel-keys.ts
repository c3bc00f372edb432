import type { Kysely } from 'kysely';
import { CHANNEL_STATUS, type ChannelKeyPoolInfo } from '@switchyard/shared';
import type { AppContext } from '../context.js';
import type { ChannelRow, Database } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';
import { rebuildChannelAbilities } from './abilities.js';
import { channelsChanged, findChannel, parseOtherInfo } from './channels.js';

/*
 * Multi-key channels, in the established gateway's storage: every key in `channels.key` and the pool's state in
 * `channel_info` (JSON, field names as the incumbent writes them). A key's status is 1 enabled, 2 disabled by hand,
 * 3 disabled automatically; a missing index means enabled. The channel itself is switched off (status 3, reason
 * ALL_KEYS_DISABLED) only when no key is left enabled, and back on when a key comes back.
 */

export type MultiKeyMode = 'random' | 'polling';
export const MULTI_KEY_MODES: readonly MultiKeyMode[] = ['random', 'polling'];

/** The pool state as stored (field names as the incumbent writes them). */
export type ChannelInfo = ChannelKeyPoolInfo;

/** The incumbent's other_info reason when a channel went off with its last key, which also lets it come back. */
export const ALL_KEYS_DISABLED = 'All keys are disabled';

type Db = Kysely<Database>;

function record<T>(v: unknown, valid: (x: unknown) => x is T): Record<string, T> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(v)) if (/^\d+$/.test(k) && valid(x)) out[k] = x;
  return Object.keys(out).length > 0 ? out : undefined;
}
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isString = (x: unknown): x is string => typeof x === 'string';

/** The pool state of a row, or null for a single-key channel (NULL, empty, broken or is_multi_key false). */
export function parseChannelInfo(text: string | null | undefined): ChannelInfo | null {
  if (!text || !text.trim()) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (o.is_multi_key !== true) return null;
  return {
    is_multi_key: true,
    multi_key_size: isNumber(o.multi_key_size) ? o.multi_key_size : 0,
    multi_key_status_list: record(o.multi_key_status_list, isNumber),
    multi_key_disabled_reason: record(o.multi_key_disabled_reason, isString),
    multi_key_disabled_time: record(o.multi_key_disabled_time, isNumber),
    multi_key_polling_index: isNumber(o.multi_key_polling_index) ? o.multi_key_polling_index : 0,
    multi_key_mode: isString(o.multi_key_mode) ? o.multi_key_mode : '',
    multi_key_balance: record(o.multi_key_balance, isNumber),
    multi_key_balance_time: record(o.multi_key_balance_time, isNumber),
  };
}

/** Maps are left out when empty, as the incumbent writes them. */
export function serializeChannelInfo(info: ChannelInfo): string {
  const out: Record<string, unknown> = { is_multi_key: true, multi_key_size: info.multi_key_size };
  if (info.multi_key_status_list && Object.keys(info.multi_key_status_list).length > 0) out.multi_key_status_list = info.multi_key_status_list;
  if (info.multi_key_disabled_reason && Object.keys(info.multi_key_disabled_reason).length > 0) out.multi_key_disabled_reason = info.multi_key_disabled_reason;
  if (info.multi_key_disabled_time && Object.keys(info.multi_key_disabled_time).length > 0) out.multi_key_disabled_time = info.multi_key_disabled_time;
  out.multi_key_polling_index = info.multi_key_polling_index;
  out.multi_key_mode = info.multi_key_mode;
  if (info.multi_key_balance && Object.keys(info.multi_key_balance).length > 0) out.multi_key_balance = info.multi_key_balance;
  if (info.multi_key_balance_time && Object.keys(info.multi_key_balance_time).length > 0) out.multi_key_balance_time = info.multi_key_balance_time;
  return JSON.stringify(out);
}

/**
 * The keys of a multi-key channel, by index: a JSON array (Vertex service accounts) gives one key per element,
 * anything else one per line. Blank lines keep their index (so stored statuses stay attached) but are not usable.
 */
export function parseKeys(keyText: string): string[] {
  const trimmed = keyText.trim();
  if (trimmed.startsWith('[')) {
    try {
      const arr: unknown = JSON.parse(trimmed);
      if (Array.isArray(arr)) return arr.map((k) => (typeof k === 'string' ? k.trim() : JSON.stringify(k)));
    } catch {
      // not an array: lines
    }
  }
  return keyText.replace(/^\n+|\n+$/g, '').split('\n').map((k) => k.trim());
}

export const keyStatus = (info: ChannelInfo, index: number): number => info.multi_key_status_list?.[String(index)] ?? CHANNEL_STATUS.ENABLED;

/** Indexes of the usable (non-blank) keys that are enabled. */
export function enabledKeyIndexes(keys: readonly string[], info: ChannelInfo): number[] {
  const out: number[] = [];
  keys.forEach((k, i) => {
    if (k !== '' && keyStatus(info, i) === CHANNEL_STATUS.ENABLED) out.push(i);
  });
  return out;
}

/** A new pool of these keys, all enabled. */
export function newChannelInfo(size: number, mode: string): ChannelInfo {
  return { is_multi_key: true, multi_key_size: size, multi_key_polling_index: 0, multi_key_mode: mode };
}

/** Sets one key's status (enabled clears its entry, reason and time). */
export function withKeyStatus(info: ChannelInfo, index: number, status: number, reason = '', time = nowSeconds()): ChannelInfo {
  const i = String(index);
  const statuses = { ...info.multi_key_status_list };
  const reasons = { ...info.multi_key_disabled_reason };
  const times = { ...info.multi_key_disabled_time };
  if (status === CHANNEL_STATUS.ENABLED) {
    delete statuses[i];
    delete reasons[i];
    delete times[i];
  } else {
    statuses[i] = status;
    times[i] = time;
    if (reason) reasons[i] = reason;
    else delete reasons[i];
  }
  return { ...info, multi_key_status_list: statuses, multi_key_disabled_reason: reasons, multi_key_disabled_time: times };
}

/** Records the balances (USD) just asked of some keys, at `time`. */
export function withKeyBalances(info: ChannelInfo, balances: ReadonlyMap<number, number>, time = nowSeconds()): ChannelInfo {
  const amounts = { ...info.multi_key_balance };
  const times = { ...info.multi_key_balance_time };
  for (const [index, usd] of balances) {
    amounts[String(index)] = usd;
    times[String(index)] = time;
  }
  return { ...info, multi_key_balance: amounts, multi_key_balance_time: times };
}

/** Keeps only the keys `keep` accepts, renumbering their statuses and balances. */
export function withoutKeys(keys: readonly string[], info: ChannelInfo, keep: (index: number) => boolean): { keys: string[]; info: ChannelInfo } {
  const out: string[] = [];
  let next: ChannelInfo = { ...info, multi_key_status_list: {}, multi_key_disabled_reason: {}, multi_key_disabled_time: {}, multi_key_balance: {}, multi_key_balance_time: {} };
  keys.forEach((key, i) => {
    if (key === '' || !keep(i)) return;
    const status = keyStatus(info, i);
    if (status !== CHANNEL_STATUS.ENABLED) {
      next = withKeyStatus(next, out.length, status, info.multi_key_disabled_reason?.[String(i)] ?? '', info.multi_key_disabled_time?.[String(i)] ?? 0);
    }
    const usd = info.multi_key_balance?.[String(i)];
    if (usd !== undefined) next = withKeyBalances(next, new Map([[out.length, usd]]), info.multi_key_balance_time?.[String(i)] ?? 0);
    out.push(key);
  });
  next.multi_key_size = out.length;
  next.multi_key_polling_index = 0;
  return { keys: out, info: next };
}

/** The channel status and other_info that follow from the keys' statuses. */
function reconciled(row: ChannelRow, keys: readonly string[], info: ChannelInfo): { status: number; other_info: string } {
  const other = parseOtherInfo(row.other_info);
  const anyEnabled = enabledKeyIndexes(keys, info).length > 0;
  if (!anyEnabled && row.status === CHANNEL_STATUS.ENABLED) {
    return { status: CHANNEL_STATUS.AUTO_DISABLED, other_info: JSON.stringify({ ...other, status_reason: ALL_KEYS_DISABLED, status_time: nowSeconds() }) };
  }
  if (anyEnabled && row.status === CHANNEL_STATUS.AUTO_DISABLED && other.status_reason === ALL_KEYS_DISABLED) {
    return { status: CHANNEL_STATUS.ENABLED, other_info: JSON.stringify({ ...other, status_reason: '', status_time: nowSeconds() }) };
  }
  return { status: row.status, other_info: row.other_info };
}

export class KeyPoolError extends Error {}

/**
 * What a change does to a multi-key channel's pool: the new keys and state, or null for "nothing to do". It may
 * throw KeyPoolError with a message for the console.
 */
export type PoolChange = (keys: string[], info: ChannelInfo, row: ChannelRow) => { keys: string[]; info: ChannelInfo } | null;

/**
 * Applies a change to a multi-key channel's keys and pool state, with the channel status reconciled (off when no key
 * is left, back on when one returns after that), then refreshes routing here and on the other nodes. Concurrent
 * changes (many calls failing on one key, an admin's click) never lose each other's writes: the row is written only
 * if its key and channel_info are still those read, else read again. Returns whether anything changed.
 */
export async function changeKeyPool(ctx: Pick<AppContext, 'routing' | 'bus' | 'db'>, id: number, change: PoolChange): Promise<boolean> {
  const db: Db = ctx.db.kysely;
  for (let attempt = 0; attempt < 20; attempt++) {
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await findChannel(trx, id);
      const info = row && parseChannelInfo(row.channel_info);
      if (!row || !info) throw new KeyPoolError('该渠道不是多密钥模式');
      const next = change(parseKeys(row.key), info, row);
      if (!next) return 'same' as const;
      const { status, other_info } = reconciled(row, next.keys, next.info);
      const channelInfo = serializeChannelInfo({ ...next.info, multi_key_size: next.keys.length });
      const keyText = next.keys.join('\n');
      if (keyText === row.key && channelInfo === row.channel_info && status === row.status) return 'same' as const;
      const res = await trx
        .updateTable('channels')
        .set({ key: keyText, channel_info: channelInfo, status, other_info })
        .where('id', '=', id)
        .where('key', '=', row.key)
        .where('channel_info', '=', row.channel_info!)
        .where('status', '=', row.status)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return 'raced' as const;
      if (status !== row.status) await rebuildChannelAbilities(trx, { ...row, status });
      return 'changed' as const;
    });
    if (outcome === 'raced') continue;
    if (outcome === 'changed') await channelsChanged(ctx);
    return outcome === 'changed';
  }
  throw new Error(`channel #${id}: key pool kept changing under this write`);
}

/** A multi-key channel's enabled keys, as the routing table carries them. */
export interface KeyPool {
  mode: string;
  /** Where round-robin starts in a fresh process (the stored multi_key_polling_index). */
  pollingStart: number;
  /** Keys in the channel, enabled or not (blank lines count). */
  size: number;
  enabled: ReadonlyArray<{ index: number; key: string }>;
}

/** The routing table's view of a row's keys; null for a single-key channel. */
export function keyPoolOf(row: Pick<ChannelRow, 'key' | 'channel_info'>): KeyPool | null {
  const info = parseChannelInfo(row.channel_info);
  if (!info) return null;
  const keys = parseKeys(row.key);
  const enabled = enabledKeyIndexes(keys, info).map((index) => Object.freeze({ index, key: keys[index] }));
  return Object.freeze({ mode: info.multi_key_mode, pollingStart: info.multi_key_polling_index, size: keys.length, enabled: Object.freeze(enabled) });
}
