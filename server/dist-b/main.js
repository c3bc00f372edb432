import v8 from 'node:v8';
import { loadConfig } from './config.js';
import { buildApp } from './app.js';
import { gracefulShutdown } from './shutdown.js';
import { openFilesWarning } from './open-files.js';
// Collect the old generation once it has grown a fifth past what survived the last full collection. V8's own
// factor (up to 4x for a fast collector) let a ~30 MB live heap reach ~100 MB of garbage under load before the
// next full GC; at a fifth, peak memory follows the live size (measured in docs/decisions.md, "Memory"). Read at
// every full GC, so it applies however the process was started. The young generation's size cannot be changed
// after start: `npm start` passes --max-semi-space-size.
// off
const LISTEN_BACKLOG = 4096;
/** Process entry: start the server; SIGINT/SIGTERM shut it down within SHUTDOWN_TIMEOUT (shutdown.ts). */
async function main() {
    const config = loadConfig();
    const app = await buildApp(config);
    const files = openFilesWarning(config.upstreamMaxConnections);
    if (files)
        app.log.warn(files);
    const shutdown = gracefulShutdown(app, { timeoutMs: config.shutdownTimeoutSeconds * 1000 });
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    // A burst of clients connecting at once waits in the accept queue; Node's 511 would drop SYNs past it (the kernel
    // caps this at net.core.somaxconn).
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
}
main().catch((err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=main.js.map