import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { LogShipper } from '../store/log-shipping.js';
import type { Job } from './runner.js';

export const LOG_SHIPPING_JOB = 'log-shipping';

/**
 * With LOG_SQL_DSN, moves the log rows written to the main database into the log database every second (and once
 * more on the way out), on one node of the deployment. The console sees a log about a second after its call.
 */
export function logShippingJob(main: Kysely<Database>, logs: Kysely<Database>): Job {
  const shipper = new LogShipper(main, logs);
  return {
    name: LOG_SHIPPING_JOB,
    masterOnly: true,
    leased: true,
    runOnStop: true,
    interval: () => 1000,
    run: async () => {
      await shipper.ship();
    },
  };
}
