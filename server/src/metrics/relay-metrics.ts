import { Counter, Histogram, type Registry } from 'prom-client';

/*
 * What the relay records per call. Each call touches a few metric children found by (model, channel): the children
 * are kept per key after their first use, so a call costs map lookups and two bucket searches, not prom-client's
 * label hashing (the relay's own work is a few tens of µs; this stays well under one).
 */

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const FIRST_BYTE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200];
const WRITE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

interface CallChildren {
  answered: Counter.Internal;
  latency: Histogram.Internal<'model' | 'channel'>;
  firstByte: Histogram.Internal<'model' | 'channel'>;
  quota: Counter.Internal;
}

/** What the relay calls per call; a no-op when metrics are off (METRICS_TOKEN unset). */
export interface RelayRecorder {
  answered(model: string, channelId: number, status: number, seconds: number, firstByteSeconds: number, cost: number): void;
  upstreamFailed(channelId: number, status: number): void;
  retried(channelId: number): void;
  refused(status: number): void;
  settlementWritten(size: number, seconds: number): void;
}

export const NO_RELAY_METRICS: RelayRecorder = {
  answered() {},
  upstreamFailed() {},
  retried() {},
  refused() {},
  settlementWritten() {},
};

export class RelayMetrics implements RelayRecorder {
  private readonly requests: Counter<'model' | 'channel' | 'status'>;
  private readonly latency: Histogram<'model' | 'channel'>;
  private readonly firstByte: Histogram<'model' | 'channel'>;
  private readonly quota: Counter<'model' | 'channel'>;
  private readonly upstreamErrors: Counter<'channel' | 'status'>;
  private readonly retries: Counter<'channel'>;
  private readonly refusals: Counter<'status'>;
  private readonly settlementBatch: Histogram;
  private readonly settlementWrite: Histogram;
  private readonly children = new Map<string, CallChildren>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({ name: 'switchyard_relay_requests_total', help: 'Relayed calls answered by an upstream, by model, channel and the status the client got', labelNames: ['model', 'channel', 'status'], registers });
    this.latency = new Histogram({ name: 'switchyard_relay_duration_seconds', help: 'Whole relayed calls, from arrival to the end of the answer', labelNames: ['model', 'channel'], buckets: LATENCY_BUCKETS, registers });
    this.firstByte = new Histogram({ name: 'switchyard_relay_first_byte_seconds', help: 'From arrival to the first byte of the answer', labelNames: ['model', 'channel'], buckets: FIRST_BYTE_BUCKETS, registers });
    this.quota = new Counter({ name: 'switchyard_quota_charged_total', help: 'Quota charged for relayed calls (500000 = 1 USD)', labelNames: ['model', 'channel'], registers });
    this.upstreamErrors = new Counter({ name: 'switchyard_upstream_errors_total', help: 'Failed upstream attempts by channel and upstream status (0: unreachable or cut)', labelNames: ['channel', 'status'], registers });
    this.retries = new Counter({ name: 'switchyard_relay_retries_total', help: 'Attempts on another channel after a failed one, by the channel that failed', labelNames: ['channel'], registers });
    this.refusals = new Counter({ name: 'switchyard_relay_refused_total', help: 'Relayed calls that got no answer from any upstream, by the status the client got', labelNames: ['status'], registers });
    this.settlementBatch = new Histogram({ name: 'switchyard_settlement_batch_size', help: 'Calls per settlement batch written', buckets: BATCH_BUCKETS, registers });
    this.settlementWrite = new Histogram({ name: 'switchyard_settlement_write_seconds', help: 'Time to write one settlement batch (database)', buckets: WRITE_BUCKETS, registers });
  }

  /** A call answered by an upstream and settled. */
  answered(model: string, channelId: number, status: number, seconds: number, firstByteSeconds: number, cost: number): void {
    const key = `${channelId}\n${model}`;
    let c = this.children.get(key);
    if (!c) {
      const channel = String(channelId);
      c = {
        answered: this.requests.labels(model, channel, '200'),
        latency: this.latency.labels(model, channel),
        firstByte: this.firstByte.labels(model, channel),
        quota: this.quota.labels(model, channel),
      };
      // Bounded by the models and channels an operator configured; a flood of unknown models never gets this far.
      this.children.set(key, c);
    }
    if (status === 200) c.answered.inc();
    else this.requests.labels(model, String(channelId), String(status)).inc();
    c.latency.observe(seconds);
    if (firstByteSeconds >= 0) c.firstByte.observe(firstByteSeconds);
    if (cost > 0) c.quota.inc(cost);
  }

  upstreamFailed(channelId: number, status: number): void {
    this.upstreamErrors.labels(String(channelId), String(status)).inc();
  }

  retried(channelId: number): void {
    this.retries.labels(String(channelId)).inc();
  }

  refused(status: number): void {
    this.refusals.labels(String(status)).inc();
  }

  settlementWritten(size: number, seconds: number): void {
    this.settlementBatch.observe(size);
    this.settlementWrite.observe(seconds);
  }
}
