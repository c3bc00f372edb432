import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { Bus } from './cache/bus.js';
import type { Options } from './options/index.js';
import type { AccountState } from './auth/account-state.js';
import type { RoutingTable } from './cache/routing.js';
import type { LogWriter } from './store/logs.js';
import type { AuthCache } from './cache/auth-cache.js';
import type { RelayServices } from './relay/services.js';
import type { UsageRollup } from './services/usage-rollup.js';
import type { ChannelTestRunner } from './services/channel-tests.js';
import type { JobRunner } from './jobs/runner.js';
import type { ResponsesKeeper } from './relay/formats/responses/store.js';
import type { EmailCodes } from './auth/verification/index.js';
import type { RateLimiter } from './services/rate-limit/limiter.js';
import type { Metrics } from './metrics/index.js';
import type { Tracing } from './tracing.js';

/** What every route and job can reach. Built once in app.ts. */
export interface AppContext {
  config: Config;
  db: Db;
  /** Where the logs are read and cleared: LOG_SQL_DSN's database, or `db` itself (jobs/log-shipping.ts). */
  logDb: Db;
  bus: Bus;
  options: Options;
  accounts: AccountState;
  /** Channel routing, in memory; rebuilt on every channel change (here and, through the bus, on other nodes). */
  routing: RoutingTable;
  /** Batched log rows that no balance depends on. */
  logWriter: LogWriter;
  /** Tokens and users as the relay reads them, from memory. */
  authCache: AuthCache;
  /** The relay's upstream connection pools and its batched settlement writer. */
  relay: RelayServices;
  /** Responses the gateway converted, kept for continuation by reference (written before their answer ends). */
  responses: ResponsesKeeper;
  /** The data dashboard's hourly roll-up of settled calls, in memory until the usage-flush job writes it. */
  usage: UsageRollup;
  /** Background jobs (jobs/index.ts); stopped, with a final run where a job asks for one, when the app closes. */
  jobs: JobRunner;
  /** Channel tests (one all-channel run at a time), for the console and the periodic job. */
  channelTests: ChannelTestRunner;
  /** Codes and reset tokens mailed to users (database, or Redis when configured). */
  emailCodes: EmailCodes;
  /** Per-address and per-user request limits (memory, or Redis shared by every node). */
  rateLimiter: RateLimiter;
  /** Prometheus figures of this process (metrics/). */
  metrics: Metrics;
  /** Traces of relay calls by OTLP; null when no endpoint is configured. */
  tracing: Tracing | null;
  log: FastifyBaseLogger;
  startTime: number;
  version: string;
}
