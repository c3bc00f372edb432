export const RESPONSES_RETENTION_JOB = 'responses-retention';
/**
 * Deletes kept Responses older than ResponsesRetentionDays, hourly, on the master node only (one deletion per
 * deployment). Reads already ignore expired responses; this frees their space. A Redis store expires its own keys.
 */
export function responsesRetentionJob(responses) {
    return {
        name: RESPONSES_RETENTION_JOB,
        interval: () => 3_600_000,
        masterOnly: true,
        run: async () => {
            await responses.expire();
        },
    };
}
//# sourceMappingURL=responses-retention.js.map