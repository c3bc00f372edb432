import type { AppContext } from '../context.js';
import { channelBalancesJob } from './channel-balances.js';
import { channelTestsJob } from './channel-tests.js';
import { responsesRetentionJob } from './responses-retention.js';
import type { JobRunner } from './runner.js';
import { usageFlushJob } from './usage-flush.js';
import { emailCodesCleanupJob } from './email-codes-cleanup.js';
import { taskPollerJob } from './task-poller.js';
import { logRetentionJob } from './log-retention.js';
import { logShippingJob } from './log-shipping.js';
import { TASK_PLATFORMS } from '../relay/tasks/index.js';

export { JobRunner, type Job } from './runner.js';

/** Every background job of a server process. A new job is one file in this folder and one line here. */
export function registerJobs(runner: JobRunner, ctx: AppContext): void {
  runner.add(usageFlushJob(ctx.usage, ctx.options));
  runner.add(channelTestsJob(ctx));
  runner.add(channelBalancesJob(ctx));
  runner.add(responsesRetentionJob(ctx.responses));
  runner.add(emailCodesCleanupJob(ctx.emailCodes));
  runner.add(logRetentionJob(ctx.db.kysely, ctx.logDb.kysely, ctx.options));
  if (ctx.logDb !== ctx.db) runner.add(logShippingJob(ctx.db.kysely, ctx.logDb.kysely));
  for (const platform of TASK_PLATFORMS) runner.add(taskPollerJob(ctx, platform));
}
