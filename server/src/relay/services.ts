import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { ChannelBreaker } from './breaker.js';
import { InFlightCalls } from './in-flight.js';
import { setClientStallTimeout } from './respond.js';
import { configureReasoningSeal } from './formats/responses/sealed-reasoning.js';
import { QuotaGate } from './quota-gate.js';
import { Settler, type SettlementRecord } from './settler.js';
import { createUpstreamClient, type UpstreamClient } from './upstream.js';
import { NO_RELAY_METRICS, type RelayRecorder } from '../metrics/relay-metrics.js';
import { LocalBus, type Bus } from '../cache/bus.js';
import { SessionAffinity } from './session-affinity.js';

export interface RelayServices {
  upstream: UpstreamClient;
  settler: Settler;
  breaker: ChannelBreaker;
  /** The calls being relayed now, so a shutdown can stop those that outlast its deadline. */
  calls: InFlightCalls;
  /** Reservations, with calls that do not fit waiting for what the same user's calls in flight give back. */
  quotaGate: QuotaGate;
  /** Agent sessions and the channel and key their turns go to. */
  affinity: SessionAffinity;
  close(): Promise<void>;
}

export function createRelayServices(
  config: Config,
  db: Kysely<Database>,
  log: FastifyBaseLogger,
  metrics: RelayRecorder = NO_RELAY_METRICS,
  record: SettlementRecord | null = null,
  bus: Bus = new LocalBus(),
): RelayServices {
  const upstream = createUpstreamClient({
    relayTimeoutSeconds: config.relayTimeoutSeconds,
    streamingTimeoutSeconds: config.streamingTimeoutSeconds,
    maxCallsPerOrigin: config.upstreamMaxConnections,
    http2: config.upstreamHttp2,
  });
  setClientStallTimeout(config.clientStallTimeoutSeconds * 1000);
  configureReasoningSeal(config.sessionSecret);
  const settler = new Settler(db, log, config.settlementIntervalMs);
  settler.record = record;
  settler.maxPending = config.settlementMaxPending;
  const quotaGate = new QuotaGate(db, () => settler.flushSoon());
  settler.onWritten = (batch, seconds) => {
    metrics.settlementWritten(batch.length, seconds);
    const users: number[] = [];
    for (const s of batch) if (s.reservation.amount > 0) users.push(s.reservation.userId);
    if (users.length > 0) quotaGate.settled(users);
  };
  return {
    upstream,
    settler,
    breaker: new ChannelBreaker(),
    calls: new InFlightCalls(),
    quotaGate,
    affinity: new SessionAffinity(bus),
    async close() {
      await settler.close();
      await upstream.close();
    },
  };
}
