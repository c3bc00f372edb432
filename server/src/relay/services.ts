import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { ChannelBreaker } from './breaker.js';
import { Settler } from './settler.js';
import { createUpstreamClient, type UpstreamClient } from './upstream.js';

export interface RelayServices {
  upstream: UpstreamClient;
  settler: Settler;
  breaker: ChannelBreaker;
  close(): Promise<void>;
}

export function createRelayServices(config: Config, db: Kysely<Database>, log: FastifyBaseLogger): RelayServices {
  const upstream = createUpstreamClient(config.relayTimeoutSeconds, config.streamingTimeoutSeconds);
  const settler = new Settler(db, log);
  return {
    upstream,
    settler,
    breaker: new ChannelBreaker(),
    async close() {
      await settler.close();
      await upstream.close();
    },
  };
}
