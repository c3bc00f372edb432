import type { AppContext } from '../context.js';
import { updateAllBalances } from '../services/channel-balances.js';
import type { Job } from './runner.js';

export const CHANNEL_BALANCES_JOB = 'channel-balances';

/** Asks the upstreams for every enabled channel's balance every CHANNEL_UPDATE_FREQUENCY minutes (off when 0), on one master node (the holder of its lease). */
export function channelBalancesJob(ctx: AppContext): Job {
  return {
    name: CHANNEL_BALANCES_JOB,
    masterOnly: true,
    leased: true,
    interval: () => ctx.config.channelUpdateFrequencyMinutes * 60_000,
    async run() {
      const { updated, failed } = await updateAllBalances(ctx);
      ctx.log.info({ updated, failed }, 'channel balances updated');
    },
  };
}
