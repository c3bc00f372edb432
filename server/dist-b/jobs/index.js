import { channelBalancesJob } from './channel-balances.js';
import { channelTestsJob } from './channel-tests.js';
import { responsesRetentionJob } from './responses-retention.js';
import { usageFlushJob } from './usage-flush.js';
import { emailCodesCleanupJob } from './email-codes-cleanup.js';
export { JobRunner } from './runner.js';
/** Every background job of a server process. A new job is one file in this folder and one line here. */
export function registerJobs(runner, ctx) {
    runner.add(usageFlushJob(ctx.usage, ctx.options));
    runner.add(channelTestsJob(ctx));
    runner.add(channelBalancesJob(ctx));
    runner.add(responsesRetentionJob(ctx.responses));
    runner.add(emailCodesCleanupJob(ctx.emailCodes));
}
//# sourceMappingURL=index.js.map