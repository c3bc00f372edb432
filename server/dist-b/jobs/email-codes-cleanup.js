export const EMAIL_CODES_CLEANUP_JOB = 'email-codes-cleanup';
/** Deletes expired mailed codes and reset tokens every 10 minutes, on the master node. Reads ignore them already. */
export function emailCodesCleanupJob(codes) {
    return {
        name: EMAIL_CODES_CLEANUP_JOB,
        interval: () => 600_000,
        masterOnly: true,
        run: async () => {
            await codes.expire();
        },
    };
}
//# sourceMappingURL=email-codes-cleanup.js.map