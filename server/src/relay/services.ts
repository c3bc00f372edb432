import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { ChannelBreaker } from './breaker.js';
import { InFlightCalls } from './in-flight.js';
import { Settler } from './settler.js';
import { createUpstreamClient, type UpstreamClient } from './upstream.js';

export interface RelayServices {
  upstream: UpstreamClient;
  settler: Settler;
  breaker: ChannelBreaker;
  /** The calls being relayed now, so a shutdown can stop those that outlast its deadline. */
  calls: InFlightCalls;
  close(): Promise<void>;
}

export function createRelayServices(config: Config, db: Kysely<Database>, log: FastifyBaseLogger): RelayServices {
  const upstream = createUpstreamClient(config.relayTimeoutSeconds, config.streamingTimeoutSeconds);
  const settler = new Settler(db, log);
  return {
    upstream,
    settler,
    breaker: new ChannelBreaker(),
    calls: new InFlightCalls(),
    async close() {
      await settler.close();
      await upstream.close();
    },
  };
}
