import { loadConfig } from './config.js';
import { buildApp } from './app.js';
import { gracefulShutdown } from './shutdown.js';
import { openFilesWarning } from './open-files.js';
import { adaptHeapGrowth } from './heap-growth.js';

// Collect the old generation once it has grown a fifth past what survived the last full collection, while few calls
// are in flight (heap-growth.ts says why, and why not with thousands of streams open). The young generation keeps
// V8's default size (16 MB semi-spaces): at 8 MB, first bytes with 5,000 streams open came ~30 ms later at p99.
adaptHeapGrowth();

const LISTEN_BACKLOG = 4096;

/** Process entry: start the server; SIGINT/SIGTERM shut it down within SHUTDOWN_TIMEOUT (shutdown.ts). */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  const files = openFilesWarning(config.upstreamMaxConnections);
  if (files) app.log.warn(files);
  const shutdown = gracefulShutdown(app, { timeoutMs: config.shutdownTimeoutSeconds * 1000 });
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // A burst of clients connecting at once waits in the accept queue; Node's 511 would drop SYNs past it (the kernel
  // caps this at net.core.somaxconn).
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
