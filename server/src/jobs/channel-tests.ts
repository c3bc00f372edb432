import type { AppContext } from '../context.js';
import type { Job } from './runner.js';

export const CHANNEL_TESTS_JOB = 'channel-tests';

/**
 * Tests every enabled and auto-disabled channel every CHANNEL_TEST_FREQUENCY minutes (off when 0), applying the
 * monitoring rules: a failing or slow channel is switched off, an auto-disabled one that answers again comes back
 * (AutomaticEnableChannelEnabled). Once per deployment: one master node, holding its lease, runs it. A run an admin started is waited
 * for rather than doubled.
 */
export function channelTestsJob(ctx: AppContext): Job {
  return {
    name: CHANNEL_TESTS_JOB,
    masterOnly: true,
    leased: true,
    interval: () => ctx.config.channelTestFrequencyMinutes * 60_000,
    async run() {
      ctx.channelTests.startAll();
      await ctx.channelTests.idle();
    },
  };
}
