import { CHANNEL_STATUS } from '@switchyard/shared';
import { routedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/schema.js';
import { listChannelsWithStatus, recordChannelBalance, setChannelStatus } from '../store/channels.js';
import { UpstreamQueryError } from './channel-upstream.js';
import { fetchUpstreamBalance } from './upstream-balances.js';

/** How many channels' balances are asked for at once. */
const PARALLEL = 4;

/** Asks the upstream for one channel's balance and saves it. Throws UpstreamQueryError with a message to show. */
export async function updateChannelBalance(ctx: AppContext, row: ChannelRow): Promise<number> {
  const balance = await fetchUpstreamBalance(routedChannel(row), ctx.options.get('Price'), ctx.relay.upstream);
  await recordChannelBalance(ctx.db.kysely, row.id, balance);
  return balance;
}

/**
 * Every enabled channel's balance (the console's "update all", and the CHANNEL_UPDATE_FREQUENCY job). An empty
 * account cannot serve: monitoring may switch such a channel off, only when its auto_ban allows.
 */
export async function updateAllBalances(ctx: AppContext): Promise<{ updated: number; failed: number[] }> {
  const rows = await listChannelsWithStatus(ctx.db.kysely, [CHANNEL_STATUS.ENABLED]);
  const failed: number[] = [];
  let updated = 0;
  const worker = async () => {
    for (let row = rows.shift(); row; row = rows.shift()) {
      try {
        const balance = await updateChannelBalance(ctx, row);
        updated++;
        if (balance <= 0 && row.auto_ban === 1 && ctx.options.get('AutomaticDisableChannelEnabled')) {
          await setChannelStatus(ctx, row.id, CHANNEL_STATUS.AUTO_DISABLED, '余额不足', [CHANNEL_STATUS.ENABLED]);
        }
      } catch (err) {
        if (!(err instanceof UpstreamQueryError)) ctx.log.warn({ err, channel: row.id }, 'balance update failed');
        failed.push(row.id);
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { updated, failed: failed.sort((a, b) => a - b) };
}
