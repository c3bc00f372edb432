import type { EmailCodes } from '../auth/verification/index.js';
import type { Job } from './runner.js';

export const EMAIL_CODES_CLEANUP_JOB = 'email-codes-cleanup';

/** Deletes expired mailed codes and reset tokens every 10 minutes, on one master node (the holder of its lease). Reads ignore them already. */
export function emailCodesCleanupJob(codes: Pick<EmailCodes, 'expire'>): Job {
  return {
    name: EMAIL_CODES_CLEANUP_JOB,
    interval: () => 600_000,
    masterOnly: true,
    leased: true,
    run: async () => {
      await codes.expire();
    },
  };
}
