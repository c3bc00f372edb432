import http from 'node:http';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { LogShipper } from './store/log-shipping.js';
import { hashPassword } from './auth/password.js';
import { connect, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { refuseInterruptedImport } from './import/start-guard.js';
import type { Bus } from './cache/bus.js';
import { Options } from './options/index.js';
import { RoutingTable } from './cache/routing.js';
import { LogWriter } from './store/logs.js';
import { AccountState, DEFAULT_ROOT_PASSWORD } from './auth/account-state.js';
import { installGuard } from './auth/guard.js';
import { consoleRoutes } from './console/index.js';
import { AuthCache } from './cache/auth-cache.js';
import { createRelayServices } from './relay/services.js';
import { answerRelayClientError, formatOf, isRelayUrl, MAX_PARAM_LENGTH, RELAY_ENDPOINTS, relayNotFound, relayRoutes, sendError } from './relay/routes/index.js';
import { compileTrust, RelayLane } from './relay/lane.js';
import { shuttingDown } from './relay/errors.js';
import { SHUTDOWN_MESSAGE } from './relay/in-flight.js';
import { UsageRollup } from './services/usage-rollup.js';
import { JobRunner, registerJobs } from './jobs/index.js';
import { DatabaseLease } from './jobs/lease.js';
import { ServerPresence } from './cluster/server-presence.js';
import { taskRoutes } from './relay/tasks/index.js';
import { ChannelTestRunner } from './services/channel-tests.js';
import { openResponsesKeeper } from './relay/formats/responses/open-store.js';
import { openEmailCodes } from './auth/verification/open.js';
import { installBodyParsers } from './console/body-parsers.js';
import { consoleErrorBody, consoleFailure, notFoundMessage } from './console/errors.js';
import { answerClientError, answerFrameworkError } from './framework-errors.js';
import { ignoreEmptyContentType } from './empty-content-type.js';
import { openRateLimiter } from './services/rate-limit/open.js';
import { installHttpRateLimits } from './console/rate-limits.js';
import { openBus } from './cluster/open-bus.js';
import { releaseDeadReservations } from './cluster/dead-reservations.js';
import { replayDeadProcessJournals } from './cluster/dead-journals.js';
import { journalPlaceOf, openSettlementJournal } from './relay/settlement-journal/open.js';
import { assignRequestId, requestIdOf } from './request-id.js';
import { Metrics } from './metrics/index.js';
import { metricsRoute } from './metrics/route.js';
import { openTracing } from './tracing.js';
import { Readiness, readinessRoute } from './health/readiness.js';
import { serveConsole } from './web/serve-console.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildOptions {
  /** Use this database instead of connecting from config (tests share one per suite). */
  db?: Db;
  bus?: Bus;
  logger?: boolean | object;
}

export const VERSION = '0.1.0';

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // Relay calls reach the relay lane first (relay/lane.ts); it is made once the app's services exist.
  let lane: RelayLane | null = null;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    // Relay calls are recorded by their consume logs (and their failures by the relay's error handler), so they
    // get no access-log lines: two JSON lines per call would cost more than the rest of the relay's bookkeeping.
    logController: new LogController({ disableRequestLogging: (request: { url: string }) => isRelayUrl(request.url) }),
    bodyLimit: config.bodyLimit,
    // Requests that arrive while the server closes are answered below, in the caller's format.
    return503OnClosing: false,
    // Fastify bounds each close step by this too, and the first waits for the calls in flight: the shutdown
    // (shutdown.ts) bounds them by SHUTDOWN_TIMEOUT, so this must not cut them earlier (it did at 10 s).
    pluginTimeout: Math.max(10_000, config.shutdownTimeoutSeconds * 1000 + 1000),
    // Fastify's own refusals, in the shape of the surface the path belongs to (never Fastify's English text).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    genReqId: requestIdOf,
    serverFactory: (handler) => {
      const headersTimeout = config.clientHeadersTimeoutSeconds * 1000;
      const server = http.createServer(
        {
          // A connection must bring its request's headers within this time (a connection left idle after connecting, a
          // slowloris), and its whole request within requestTimeout; answers, streamed for minutes, are not bounded.
          headersTimeout,
          requestTimeout: Math.max(headersTimeout, config.clientRequestTimeoutSeconds * 1000),
          connectionsCheckingInterval: Math.min(30_000, Math.max(100, headersTimeout / 4)),
          // TCP keep-alive probes find clients that vanished without closing (a half-open connection).
          keepAlive: true,
          keepAliveInitialDelay: 30_000,
        },
        (req, res) => {
          assignRequestId(req, res);
          if (!lane?.take(req, res)) handler(req, res);
        },
      );
      // Before Fastify's own listener (framework-errors.ts), which leaves a socket already answered alone: HTTP the
      // parser refuses on a relay path is answered in the caller's format.
      server.on('clientError', answerRelayClientError);
      // Idle keep-alive connections are closed after this (Fastify's own value).
      server.keepAliveTimeout = 72_000;
      return server;
    },
  });

  const onLost = (err: Error) => app.log.warn({ err }, 'the database ended an idle connection; the pool opens another');
  const pool = { maxConnections: config.sqlMaxOpenConns, waitTimeoutMs: config.sqlConnWaitTimeoutSeconds * 1000 };
  const db = opts.db ?? (await connect(config.sqlDsn, config.sqlitePath, onLost, pool));
  // Under a primary, the primary prepared the database before starting the workers.
  const preparing = config.nodeType === 'master' && config.workerIndex === 0;
  // LOG_SQL_DSN: the logs' own database, with the same schema (only its `logs` table is used).
  const logDb = config.logSqlDsn ? await connect(config.logSqlDsn, '', onLost, pool) : db;
  // root's first password is hashed while the migrations run (only used when root does not exist yet).
  const rootHash = preparing ? hashPassword(DEFAULT_ROOT_PASSWORD) : undefined;
  rootHash?.catch(() => {});
  if (preparing) await migrateToLatest(db);
  if (preparing && logDb !== db) await migrateToLatest(logDb);
  // Announced before the look for a half-done import, so an import starting now sees this server (and refuses).
  const presence = new ServerPresence(db.kysely, (err) => app.log.warn({ err }, 'renewing this server\'s presence in the database failed'));
  await presence.announce();
  await refuseInterruptedImport(db.kysely).catch(async (err: unknown) => {
    await presence.withdraw().catch(() => {});
    if (logDb !== db) await logDb.close();
    if (!opts.db) await db.close();
    throw err;
  });
  // A database handed in (a suite's) or in memory gets a journal folder of its own: no other process shares it.
  const ownJournal = opts.db !== undefined || (config.sqlDsn === '' && config.sqlitePath === ':memory:');
  const journal = openSettlementJournal(ownJournal ? null : journalPlaceOf(config), app.log);
  if (config.workerIndex === 0) {
    await replayDeadProcessJournals(db, journal.place, app.log);
    await releaseDeadReservations(db, app.log);
  }
  const bus = opts.bus ?? (await openBus(config, app.log));
  const options = new Options(db.kysely, bus, (m) => app.log.warn(m));
  await options.load();
  const accounts = new AccountState(db.kysely);
  if (preparing && (await accounts.ensureRoot(config.rootInitialQuota, rootHash))) {
    app.log.warn('created the super admin "root" with password "123456": change it now');
  } else {
    accounts.startChecking((err) => app.log.warn({ err }, 'checking whether root still has the first password failed'));
  }
  const routing = new RoutingTable(db.kysely, bus, (m, err) => app.log.warn({ err }, m));
  await routing.load();
  // A safety net for a missed bus message (Redis restart): every node re-reads its channels now and then.
  const routingSync = setInterval(() => {
    routing.load().catch((err: unknown) => app.log.warn({ err }, 'reloading the routing table failed'));
  }, Math.max(5, config.syncFrequencySeconds) * 1000);
  routingSync.unref();
  const logWriter = new LogWriter(db.kysely, {
    onError: (err, pending) => app.log.error({ err, pending }, 'writing logs failed; will retry'),
    onRefused: (row, err) => app.log.error({ err, row }, 'log row refused by the database; set aside here'),
  });
  if (config.sessionSecretGenerated) {
    app.log.warn('SESSION_SECRET is not set: using a random one, so sessions end when the process restarts and cannot be shared between nodes');
  }

  const authCache = new AuthCache(db.kysely, bus, config.syncFrequencySeconds * 1000);
  const metrics = new Metrics(config.metricsToken !== '');
  const tracing = await openTracing(config, VERSION);
  const relay = createRelayServices(config, db.kysely, app.log, metrics.relay, journal.record, bus);
  const usage = new UsageRollup(db.kysely, db.dialect, {
    enabled: () => options.get('DataExportEnabled'),
    onError: (err, rows) => app.log.error({ err, rows }, 'writing the data dashboard roll-up failed; will retry'),
  });
  const lease = new DatabaseLease(db.kysely, undefined, config.jobLeaseTtlSeconds * 1000);
  const jobs = new JobRunner(app.log, { master: config.nodeType === 'master', lease });
  const redisError = (what: string) => (err: Error) => app.log.warn({ err }, `Redis (${what}): ${err.message}`);
  const responses = await openResponsesKeeper(
    config,
    db,
    options,
    {
      onError: (err, failed, givenUp) => app.log.error({ err, failed, givenUp }, 'keeping Responses failed'),
      onReadError: (err) => app.log.error({ err }, 'reading kept Responses failed'),
    },
    redisError('kept Responses'),
  );
  const emailCodes = await openEmailCodes(config, db, redisError('mailed codes'));
  const rateLimiter = await openRateLimiter(config, (message, err) => app.log.warn({ err }, message));

  const ctx: AppContext = {
    config,
    db,
    logDb,
    bus,
    options,
    accounts,
    authCache,
    relay,
    usage,
    responses,
    jobs,
    emailCodes,
    rateLimiter,
    metrics,
    tracing,
    // Set right below: the runner needs the context it belongs to.
    channelTests: undefined as unknown as ChannelTestRunner,
    routing,
    logWriter,
    log: app.log,
    startTime: Math.floor(Date.now() / 1000),
    version: VERSION,
  };
  ctx.channelTests = new ChannelTestRunner(ctx, config.pollingIntervalSeconds * 1000);
  app.decorate('ctx', ctx);
  metrics.watch(ctx);
  // Serve once this node hears the other nodes' cache changes: a change made elsewhere right after this start must
  // not be missed (it would stay unseen until the periodic resync). A Redis that does not answer holds the start 2 s
  // at most; the resync covers it then.
  if ('ready' in bus && bus.ready) {
    const waited = await Promise.race([bus.ready().then(() => true, () => false), new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref())]);
    if (!waited) app.log.warn('the cache bus did not confirm its subscriptions at start; other nodes\' changes may wait for the next resync');
  }
  registerJobs(jobs, app.ctx);
  jobs.start();

  app.addHook('onClose', async () => {
    clearInterval(routingSync);
    // An all-channel test stops after the channel under test, so the job running it can end.
    await ctx.channelTests.close();
    // Jobs first: their last runs (the dashboard roll-up flush) still need the database.
    await jobs.stop();
    await logWriter.close();
    // In-flight calls have finished (fastify drains them before onClose); write what they owe, then disconnect.
    await relay.close();
    await responses.close();
    // The logs of the calls just settled, so they do not wait in the main database for the next start.
    if (logDb !== db) await new LogShipper(db.kysely, logDb.kysely).ship().catch((err: unknown) => app.log.error({ err }, 'moving the last logs to LOG_SQL_DSN failed'));
    await emailCodes.close();
    await rateLimiter.close();
    // The last spans go out (a collector that does not answer holds this at most the exporter's timeout).
    await tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'exporting the last traces failed'));
    if (!opts.bus) await bus.close();
    await presence.withdraw().catch((err: unknown) => app.log.warn({ err }, 'withdrawing this server\'s presence failed; it runs out by itself'));
    if (!opts.db) await db.close();
    if (logDb !== db) await logDb.close();
  });

  // Set when the server begins to close: requests still arriving (on kept-alive connections) are turned away.
  let closing = false;
  // Requests that did not come through the server's entry (injected in tests) get their X-Request-Id here.
  app.addHook('onRequest', (request, reply, done) => {
    if (!reply.raw.hasHeader('x-request-id')) reply.raw.setHeader('x-request-id', request.id);
    done();
  });
  ignoreEmptyContentType(app);
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) {
      done();
      return;
    }
    reply.header('connection', 'close');
    const url = request.url.split('?')[0];
    if (isRelayUrl(url)) sendError(reply, shuttingDown(), formatOf(request));
    else void reply.status(503).send(consoleErrorBody(SHUTDOWN_MESSAGE));
  });

  await app.register(cookie, { secret: config.sessionSecret });
  installGuard(app);
  installHttpRateLimits(app, rateLimiter, { api: config.globalApiRateLimit, web: config.globalWebRateLimit, critical: config.criticalRateLimit });

  installBodyParsers(app);
  app.setErrorHandler((error, request, reply) => {
    const failure = consoleFailure(error);
    if (failure.internal) request.log.error({ err: error }, 'unhandled error');
    return reply.status(failure.status).send(consoleErrorBody(failure.message));
  });

  await app.register(consoleRoutes, { prefix: '/api' });
  await app.register(relayRoutes);
  await app.register(taskRoutes);
  await app.register(metricsRoute);
  await app.register(readinessRoute(new Readiness(db, bus.ping ? () => bus.ping!() : null)), { prefix: '/api' });
  const relayLane = new RelayLane(app.ctx, RELAY_ENDPOINTS, { bodyLimit: config.bodyLimit, trust: compileTrust(config.trustedProxies) });
  app.addHook('preClose', () => {
    closing = true;
    return relayLane.close(app.server);
  });
  lane = relayLane;
  relay.calls.watch(app.server);

  // FRONTEND_BASE_URL on a slave node: its pages are the main console's (the established gateway's meaning); this
  // node answers only the API and the relay.
  const frontend = config.nodeType === 'slave' ? config.frontendBaseUrl : '';
  if (config.portalDir && !frontend) {
    await app.register(fastifyStatic, { root: config.portalDir, prefix: '/portal/', decorateReply: false });
  }

  const site = frontend ? null : await serveConsole(app, config.webDist, app.ctx.options);

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (isRelayUrl(url)) return relayNotFound(request, reply);
    if (frontend && url !== '/api' && !url.startsWith('/api/')) return reply.redirect(frontend + request.url, 301);
    // A missing portal file must not come back as the console: the root page tells "no portal" by this 404.
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/assets/') || url.startsWith('/portal/')) {
      return reply.status(404).send(consoleErrorBody(notFoundMessage(request.method, url)));
    }
    // Client-side routes: the console decides what to render (including its own not-found page).
    if (request.method === 'GET' && site) return site.sendIndex(reply);
    return reply.status(404).send(consoleErrorBody(notFoundMessage(request.method, url)));
  });

  return app;
}
