import type { ResponsesKeeper } from '../relay/formats/responses/store.js';
import type { Job } from './runner.js';

export const RESPONSES_RETENTION_JOB = 'responses-retention';

/**
 * Deletes kept Responses older than ResponsesRetentionDays, hourly, on one master node only, the holder of its lease (one deletion per
 * deployment). Reads already ignore expired responses; this frees their space. A Redis store expires its own keys.
 */
export function responsesRetentionJob(responses: Pick<ResponsesKeeper, 'expire'>): Job {
  return {
    name: RESPONSES_RETENTION_JOB,
    interval: () => 3_600_000,
    masterOnly: true,
    leased: true,
    run: async () => {
      await responses.expire();
    },
  };
}
