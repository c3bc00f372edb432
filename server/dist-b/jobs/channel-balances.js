import { updateAllBalances } from '../services/channel-balances.js';
export const CHANNEL_BALANCES_JOB = 'channel-balances';
/** Asks the upstreams for every enabled channel's balance every CHANNEL_UPDATE_FREQUENCY minutes (off when 0), on the master node. */
export function channelBalancesJob(ctx) {
    return {
        name: CHANNEL_BALANCES_JOB,
        masterOnly: true,
        interval: () => ctx.config.channelUpdateFrequencyMinutes * 60_000,
        async run() {
            const { updated, failed } = await updateAllBalances(ctx);
            ctx.log.info({ updated, failed }, 'channel balances updated');
        },
    };
}
//# sourceMappingURL=channel-balances.js.map