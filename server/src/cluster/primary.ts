import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { refuseInterruptedImport } from '../import/start-guard.js';
import { AccountState } from '../auth/account-state.js';
import { MemoryRateLimiter } from '../services/rate-limit/memory.js';
import type { LimitWindow } from '../services/rate-limit/limiter.js';
import { AggregatorRegistry } from 'prom-client';
import { isClusterMessage, NODE_ID_ENV, WORKER_ENV, type LimitReply, type MetricsReply, type StopOrder } from './messages.js';
import { BusRelay } from './bus-relay.js';
import { TokenBroker } from './token-broker.js';
import { releaseReservationsOfProcess } from '../store/reservations.js';
import { releaseDeadReservations } from './dead-reservations.js';
import { replayDeadProcessJournals } from './dead-journals.js';
import { journalPlaceOf } from '../relay/settlement-journal/open.js';
import { reportListening } from '../listening.js';

/*
 * The primary process of a node running several workers (WORKERS, one per core by default). It serves no request
 * itself: it prepares the database once (migrations, the root account), starts the workers — which share the
 * listening port through node:cluster — and keeps them:
 *
 * - Workers share what one process would hold in memory: cache invalidations pass through here (bus-relay.ts: the
 *   publisher hears back once every other worker applied the change; Redis carries them to other nodes), and so do
 *   rate-limit checks, answered by one in-memory limiter (when there is no Redis).
 * - A worker that dies is replaced, after a pause that grows while workers keep dying young. The calls it had
 *   answered are charged first, from its settlement journal (relay/settlement-journal/); then the balance its calls
 *   still in flight had reserved is given back (store/reservations.ts): those never reached their settlement, so
 *   their users are not charged for them.
 * - A scrape of /metrics that reaches a worker is answered with every worker's figures, merged here.
 * - Upstream access tokens (Baidu's and Vertex's exchanges) are asked of this process, which makes each once for
 *   the node (token-broker.ts).
 * - SIGTERM/SIGINT become a stop order to every worker, which drain and write what they owe (shutdown.ts); the
 *   primary exits when the last has, or at SHUTDOWN_TIMEOUT plus a margin.
 */

/** After SHUTDOWN_TIMEOUT, how long a worker may still take before it is killed, and then the primary itself. */
const KILL_MARGIN_MS = 2_000;
const EXIT_MARGIN_MS = 2_000;

const MIN_RESTART_MS = 500;
const MAX_RESTART_MS = 30_000;
/** A worker alive this long is healthy again: the next restart waits the shortest time. */
const HEALTHY_AFTER_MS = 10_000;
/** A settlement journal that could not be replayed (the database away) is tried again after this. */
const REPLAY_RETRY_MS = 10_000;

interface Slot {
  index: number;
  worker: Worker | null;
  startedAt: number;
  restartMs: number;
}

export interface PrimaryHandle {
  /** Resolves when every worker has exited after a shutdown. */
  readonly done: Promise<void>;
  shutdown(signal: NodeJS.Signals): void;
}

export async function runPrimary(config: Config, count: number, log: Logger): Promise<PrimaryHandle> {
  const env: Record<string, string> = { [NODE_ID_ENV]: `node-${process.pid}-${randomBytes(4).toString('hex')}` };
  if (config.sessionSecretGenerated) {
    // One secret for every worker, or a session signed by one would be refused by the next.
    env.SESSION_SECRET = randomBytes(32).toString('hex');
    log.warn('SESSION_SECRET is not set: using a random one, so sessions end when the node restarts and cannot be shared between nodes');
  }
  const db = await prepareDatabase(config, log);
  const journals = journalPlaceOf(config);
  // One replay at a time (workers may die together); one that could not finish is tried again a little later.
  let replaying: Promise<void> = Promise.resolve();
  const replay = (): Promise<void> =>
    (replaying = replaying.then(async () => {
      if ((await replayDeadProcessJournals(db, journals, log)) > 0 && !stopping) setTimeout(() => void replay(), REPLAY_RETRY_MS).unref();
    }));
  let stopping = false;
  await replay();
  await releaseDeadReservations(db, log);
  const limiter = config.redisConnString ? null : new MemoryRateLimiter();
  const metrics = config.metricsToken ? new AggregatorRegistry() : null;
  const slots: Slot[] = Array.from({ length: count }, (_, i) => ({ index: i + 1, worker: null, startedAt: 0, restartMs: MIN_RESTART_MS }));
  const tokens = new TokenBroker();
  const serving = new WeakSet<Worker>();
  let reported = false;
  const bus = new BusRelay(() => slots.flatMap((s) => (s.worker ? [s.worker] : [])), (w) => serving.has(w), log);
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const fork = (slot: Slot) => {
    const worker = cluster.fork({ ...env, [WORKER_ENV]: String(slot.index) });
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (m: unknown) => onMessage(worker, m));
    worker.on('listening', (address) => {
      serving.add(worker);
      // The node's port is reported once, when the first set of workers all listen (they share it).
      if (!reported && slots.every((s) => s.worker !== null && serving.has(s.worker))) {
        reported = true;
        reportListening(address.port);
      }
    });
    worker.on('exit', (code, signal) => void onExit(slot, worker, code, signal));
  };

  const onMessage = (from: Worker, m: unknown) => {
    if (!isClusterMessage(m)) return;
    if (m.sy === 'token') return tokens.handle(from, m);
    if (m.sy === 'bus') return bus.publish(from, m);
    if (m.sy === 'bus-applied') return bus.applied(from, m.id);
    if (m.sy === 'metrics' && metrics) {
      metrics.clusterMetrics().then(
        (text) => from.isConnected() && from.send({ sy: 'metrics-reply', id: m.id, text } satisfies MetricsReply),
        (err: unknown) => log.warn({ err }, 'merging the workers\' metrics failed'),
      );
      return;
    }
    if (m.sy === 'limit' && limiter) {
      let result = 0;
      if (m.op === 'admit') result = limiter.admit(m.args[0] as LimitWindow | null, m.args[1] as LimitWindow | null) as number;
      else if (m.op === 'waitMs') result = limiter.waitMs(m.args[0] as LimitWindow) as number;
      else limiter.record(m.args[0] as LimitWindow);
      if (m.id > 0 && from.isConnected()) from.send({ sy: 'limit-reply', id: m.id, result } satisfies LimitReply);
    }
  };

  const onExit = async (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    if (slot.worker === worker) slot.worker = null;
    bus.gone(worker);
    const pid = worker.process.pid ?? 0;
    // What it answered is charged before what it still held is given back (a worker stopped cleanly left nothing).
    await replay();
    if (!stopping || code !== 0) {
      // Whatever its calls in flight reserved is given back before anything else can be charged in its name.
      try {
        const released = await releaseReservationsOfProcess(db.kysely, pid);
        if (released.calls > 0) log.warn({ worker: slot.index, pid, ...released }, 'gave back the balance reserved by the calls of a worker that died');
      } catch (err) {
        log.error({ err, worker: slot.index, pid }, 'could not give back the reservations of a dead worker; they stay until the next try');
      }
    }
    if (stopping) {
      if (slots.every((s) => s.worker === null)) {
        await db.close().catch(() => undefined);
        await limiter?.close();
        resolveDone();
      }
      return;
    }
    const lived = Date.now() - slot.startedAt;
    slot.restartMs = lived >= HEALTHY_AFTER_MS ? MIN_RESTART_MS : Math.min(MAX_RESTART_MS, slot.restartMs * 2);
    log.error({ worker: slot.index, pid, code, signal, restartInMs: slot.restartMs }, 'a worker exited; starting another');
    setTimeout(() => {
      if (!stopping) fork(slot);
    }, slot.restartMs).unref();
  };

  for (const slot of slots) fork(slot);
  log.info({ workers: count, port: config.port }, 'started the workers');

  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals++;
    stopping = true;
    log.info({ signal }, signals === 1 ? 'shutting down the workers' : 'shutting down the workers now');
    // An order over IPC (main.ts): the workers may have heard the same signal themselves (it went to the whole
    // process group), and as a second signal it would skip their draining. A second signal here stops their calls
    // at once. A worker still starting (it may not listen for orders yet) or whose channel is gone gets SIGTERM.
    const order: StopOrder = { sy: 'stop', now: signals > 1 };
    for (const s of slots) {
      if (!s.worker) continue;
      if (s.worker.isConnected() && serving.has(s.worker)) s.worker.send(order);
      else s.worker.process.kill('SIGTERM');
    }
    if (signals === 1) {
      // Workers exit by SHUTDOWN_TIMEOUT on their own; one that has not (stuck) is killed a little later, and the
      // primary does not outlive that by more than the time to hear their exits.
      const budget = config.shutdownTimeoutSeconds * 1000;
      setTimeout(() => {
        log.error('workers still running past SHUTDOWN_TIMEOUT: killing them');
        for (const s of slots) s.worker?.process.kill('SIGKILL');
      }, budget + KILL_MARGIN_MS).unref();
      setTimeout(() => {
        log.error('the primary is still waiting for its workers past SHUTDOWN_TIMEOUT: exiting');
        resolveDone();
      }, budget + KILL_MARGIN_MS + EXIT_MARGIN_MS).unref();
    }
    if (slots.every((s) => s.worker === null)) resolveDone();
  };
  return { done, shutdown };
}

/** Migrations and the root account, once, before any worker starts (a slave node leaves both to the master). */
async function prepareDatabase(config: Config, log: Logger): Promise<Db> {
  const onLost = (err: Error) => log.warn({ err }, 'the database ended an idle connection; the pool opens another');
  const db = await connect(config.sqlDsn, config.sqlitePath, onLost, { maxConnections: 2, waitTimeoutMs: config.sqlConnWaitTimeoutSeconds * 1000 });
  if (config.nodeType === 'master') {
    await migrateToLatest(db);
    if (config.logSqlDsn) {
      const logDb = await connect(config.logSqlDsn, '', onLost, { maxConnections: 1, waitTimeoutMs: config.sqlConnWaitTimeoutSeconds * 1000 });
      await migrateToLatest(logDb).finally(() => logDb.close());
    }
  }
  // Before the root account: a half-imported database may lack it, and no worker should start on it.
  await refuseInterruptedImport(db.kysely).catch(async (err: unknown) => {
    await db.close();
    throw err;
  });
  if (config.nodeType === 'master') {
    if (await new AccountState(db.kysely).ensureRoot(config.rootInitialQuota)) {
      log.warn('created the super admin "root" with password "123456": change it now');
    }
  }
  return db;
}
