import cluster from 'node:cluster';
import { CHANNEL_STATUS } from '@switchyard/shared';
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import { NO_RELAY_METRICS, RelayMetrics, type RelayRecorder } from './relay-metrics.js';

/*
 * One prom-client registry per process: Node's process metrics (CPU, memory, event-loop lag, GC), the relay's
 * (relay-metrics.ts) and gauges read from the app's state when scraped. Under a primary every worker's registry is
 * merged by the primary (cluster/primary.ts) into the node's figures: counters and histograms summed; gauges summed
 * too (calls in flight, settlements pending) — and the job-leader gauge is 1 on the node whose worker holds a lease.
 */

const STATUS_NAMES: Record<number, string> = {
  [CHANNEL_STATUS.ENABLED]: 'enabled',
  [CHANNEL_STATUS.MANUALLY_DISABLED]: 'manually_disabled',
  [CHANNEL_STATUS.AUTO_DISABLED]: 'auto_disabled',
};

export class Metrics {
  readonly registry = new Registry();
  readonly relay: RelayRecorder;

  /** Off (METRICS_TOKEN unset): nothing is collected, and the relay's recorder does nothing. */
  constructor(readonly enabled: boolean) {
    if (!enabled) {
      this.relay = NO_RELAY_METRICS;
      return;
    }
    collectDefaultMetrics({ register: this.registry });
    this.relay = new RelayMetrics(this.registry);
    // A worker answers the primary's requests for its figures with this registry (prom-client starts listening for
    // them when an aggregator registry is made).
    AggregatorRegistry.setRegistries([this.registry]);
    if (cluster.isWorker) new AggregatorRegistry();
  }

  /** The gauges read from the app's state at each scrape. */
  watch(ctx: AppContext): void {
    if (!this.enabled) return;
    const registers = [this.registry];
    new Gauge({
      name: 'switchyard_channels',
      help: 'Channels by status',
      labelNames: ['status'],
      registers,
      collect() {
        const counts = new Map<string, number>(Object.values(STATUS_NAMES).map((s) => [s, 0]));
        for (const c of ctx.routing.allChannels()) {
          const name = STATUS_NAMES[c.status] ?? 'other';
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
        for (const [status, n] of counts) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'switchyard_channel_breaker_open',
      help: 'Channels resting after repeated failures (1 per resting channel)',
      labelNames: ['channel'],
      registers,
      collect() {
        this.reset();
        for (const id of ctx.relay.breaker.openChannels()) this.set({ channel: String(id) }, 1);
      },
    });
    const state = (name: string, help: string, read: () => number) =>
      new Gauge({ name, help, registers, collect() { this.set(read()); } });
    state('switchyard_calls_in_flight', 'Relayed calls being answered now', () => ctx.relay.calls.size);
    state('switchyard_settlement_pending', 'Settlements waiting to be written (the settlement lag, in calls)', () => ctx.relay.settler.pending);
    state('switchyard_quota_waiting_calls', "Calls waiting for their user's balance to come back", () => ctx.relay.quotaGate.waitingCalls);
    new Gauge({
      name: 'switchyard_job_leader',
      help: 'Whether this node runs the job (holds its lease): 1, else 0',
      labelNames: ['job'],
      registers,
      aggregator: 'max',
      collect() {
        for (const [job, holding] of ctx.jobs.leaseStates()) this.set({ job }, holding ? 1 : 0);
      },
    });
  }

  /** The exposition text of this process. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
