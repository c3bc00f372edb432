import type { AppContext } from '../context.js';
import type { TaskPlatform } from '../relay/tasks/index.js';
import type { Job } from './runner.js';

export const taskPollerJobName = (platform: TaskPlatform) => `task-poller:${platform.name}`;

/**
 * Brings one platform's unfinished tasks up to date every TASK_POLL_INTERVAL seconds, on the one node of the
 * deployment holding the job's lease (UPDATE_TASK=false keeps a node out of it entirely).
 */
export function taskPollerJob(ctx: AppContext, platform: TaskPlatform): Job {
  return {
    name: taskPollerJobName(platform),
    masterOnly: true,
    leased: true,
    interval: () => (ctx.config.updateTask ? ctx.config.taskPollIntervalSeconds * 1000 : 0),
    run: () => platform.poll(ctx),
  };
}
