import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { loadConfig, type Config } from './config.js';
import { buildApp } from './app.js';
import { gracefulShutdown } from './shutdown.js';
import { openFilesWarning } from './open-files.js';
import { adaptHeapGrowth } from './heap-growth.js';
import { runPrimary } from './cluster/primary.js';
import { isClusterMessage } from './cluster/messages.js';
import { unhonouredEnvWarnings } from './established-env.js';
import { reportListening } from './listening.js';

const LISTEN_BACKLOG = 4096;

/**
 * Process entry. With WORKERS above 1 (one per core by default) this process becomes the node's primary and starts
 * the workers (cluster/primary.ts); each worker, or the only process, runs the server. SIGINT/SIGTERM shut it down
 * within SHUTDOWN_TIMEOUT (shutdown.ts).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1) await primary(config);
  else await serve(config);
}

async function primary(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  for (const warning of unhonouredEnvWarnings(process.env)) log.warn(warning);
  const node = await runPrimary(config, config.workers, log);
  process.on('SIGINT', () => node.shutdown('SIGINT'));
  process.on('SIGTERM', () => node.shutdown('SIGTERM'));
  await node.done;
  process.exit(0);
}

async function serve(config: Config): Promise<void> {
  // Collect the old generation once it has grown a fifth past what survived the last full collection, while few
  // calls are in flight (heap-growth.ts says why, and why not with thousands of streams open). The young generation
  // keeps V8's default size (16 MB semi-spaces): at 8 MB, first bytes with 5,000 streams open came ~30 ms later.
  adaptHeapGrowth();
  const app = await buildApp(config);
  const files = openFilesWarning(config.upstreamMaxConnections);
  if (files) app.log.warn(files);
  // Under a primary, the primary said it once for the node.
  if (config.workerIndex === 0) for (const warning of unhonouredEnvWarnings(process.env)) app.log.warn(warning);
  const shutdown = gracefulShutdown(app, { timeoutMs: config.shutdownTimeoutSeconds * 1000 });
  if (config.workerIndex > 0) obeyPrimary(shutdown);
  else {
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
  }
  // A burst of clients connecting at once waits in the accept queue; Node's 511 would drop SYNs past it (the kernel
  // caps this at net.core.somaxconn). Under a primary, the primary listens and hands connections to the workers.
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  // A worker's channel is the primary's, which reports for the node.
  if (config.workerIndex === 0) reportListening((app.server.address() as AddressInfo).port);
}

/**
 * A worker drains on the primary's order (cluster/primary.ts) and stops its calls at once only when the order says
 * so. A signal of its own only starts the drain: the one that reaches the whole process group (systemd's
 * KillMode=control-group, `kill -- -PGID`, Ctrl-C) comes beside the primary's order and is not a second signal.
 */
function obeyPrimary(shutdown: (signal: string) => void): void {
  let draining = false;
  const drain = (why: string) => {
    if (draining) return;
    draining = true;
    shutdown(why);
  };
  process.on('SIGINT', () => drain('SIGINT'));
  process.on('SIGTERM', () => drain('SIGTERM'));
  process.on('message', (m: unknown) => {
    if (!isClusterMessage(m) || m.sy !== 'stop') return;
    drain('primary');
    if (m.now) shutdown('primary: now');
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
