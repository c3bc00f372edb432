import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { Bus } from './cache/bus.js';
import type { Options } from './options/index.js';
import type { AccountState } from './auth/account-state.js';

/** What every route and job can reach. Built once in app.ts. */
export interface AppContext {
  config: Config;
  db: Db;
  bus: Bus;
  options: Options;
  accounts: AccountState;
  log: FastifyBaseLogger;
  startTime: number;
  version: string;
}
