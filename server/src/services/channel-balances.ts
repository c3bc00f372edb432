import { CHANNEL_STATUS } from '@switchyard/shared';
import { routedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';
import { changeKeyPool, keyStatus, parseChannelInfo, parseKeys, withKeyBalances, type ChannelInfo } from '../store/channel-keys.js';
import { listChannelsWithStatus, recordChannelBalance, setChannelStatus } from '../store/channels.js';
import { UpstreamQueryError } from './channel-upstream.js';
import { fetchUpstreamBalance } from './upstream-balances.js';

/** How many channels' balances are asked for at once. */
const PARALLEL = 4;
const NO_KEY = '渠道没有可查询余额的密钥';
const EXHAUSTED = '余额不足';

/** One key's balance in USD, or why it could not be asked. */
export interface KeyBalance {
  index: number;
  balance?: number;
  message?: string;
}

export interface ChannelBalance {
  balance: number;
  /** Multi-key channels: each key asked (all but those disabled by hand). */
  keys?: KeyBalance[];
}

/**
 * Asks the upstream for one channel's balance and saves it. A multi-key channel's keys are asked one by one (each
 * may be a different account): each key's balance is kept in its pool state, and the channel's is what its enabled
 * keys hold together. Throws UpstreamQueryError with a message to show when no key could be asked.
 */
export async function updateChannelBalance(ctx: AppContext, row: ChannelRow): Promise<ChannelBalance> {
  const info = parseChannelInfo(row.channel_info);
  if (!info) {
    const balance = await fetchUpstreamBalance(routedChannel(row), ctx.options.get('Price'), ctx.relay.upstream);
    await recordChannelBalance(ctx.db.kysely, row.id, balance);
    return { balance };
  }
  const keys = await keyBalances(ctx, row, info);
  const asked = new Map(keys.flatMap((k) => (k.balance === undefined ? [] : [[k.index, k.balance] as const])));
  if (asked.size === 0) throw new UpstreamQueryError(keys[0]?.message ?? NO_KEY);
  await changeKeyPool(ctx, row.id, (current, state) => ({ keys: current, info: withKeyBalances(state, asked) }));
  let balance = 0;
  for (const [index, usd] of asked) if (keyStatus(info, index) === CHANNEL_STATUS.ENABLED) balance += usd;
  await recordChannelBalance(ctx.db.kysely, row.id, balance);
  return { balance, keys };
}

async function keyBalances(ctx: AppContext, row: ChannelRow, info: ChannelInfo): Promise<KeyBalance[]> {
  const channel = routedChannel(row);
  const out: KeyBalance[] = [];
  const keys = parseKeys(row.key);
  for (let index = 0; index < keys.length; index++) {
    if (keys[index] === '' || keyStatus(info, index) === CHANNEL_STATUS.MANUALLY_DISABLED) continue;
    try {
      out.push({ index, balance: await fetchUpstreamBalance(channel, ctx.options.get('Price'), ctx.relay.upstream, keys[index]) });
    } catch (err) {
      if (!(err instanceof UpstreamQueryError)) throw err;
      out.push({ index, message: err.message });
    }
  }
  return out;
}

/**
 * An empty account cannot serve: monitoring may switch it off, only when auto-disable is on and the channel's
 * auto_ban allows. A multi-key channel loses only its empty keys (and goes off with its last one).
 */
async function offWhenEmpty(ctx: AppContext, row: ChannelRow, { balance, keys }: ChannelBalance): Promise<void> {
  if (!keys) {
    if (balance <= 0 && row.auto_ban === 1 && ctx.options.get('AutomaticDisableChannelEnabled')) {
      await setChannelStatus(ctx, row.id, CHANNEL_STATUS.AUTO_DISABLED, EXHAUSTED, [CHANNEL_STATUS.ENABLED]);
    }
    return;
  }
  const { autoDisableKey } = await import('../relay/channel-keys.js');
  for (const k of keys) if (k.balance !== undefined && k.balance <= 0) await autoDisableKey(ctx, routedChannel(row), k.index, EXHAUSTED);
}

/** Every enabled channel's balance (the console's "update all", and the CHANNEL_UPDATE_FREQUENCY job). */
export async function updateAllBalances(ctx: AppContext): Promise<{ updated: number; failed: number[] }> {
  const rows = await listChannelsWithStatus(ctx.db.kysely, [CHANNEL_STATUS.ENABLED]);
  const failed: number[] = [];
  let updated = 0;
  const worker = async () => {
    for (let row = rows.shift(); row; row = rows.shift()) {
      try {
        await offWhenEmpty(ctx, row, await updateChannelBalance(ctx, row));
        updated++;
      } catch (err) {
        if (!(err instanceof UpstreamQueryError)) ctx.log.warn({ err, channel: row.id }, 'balance update failed');
        failed.push(row.id);
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { updated, failed: failed.sort((a, b) => a - b) };
}
