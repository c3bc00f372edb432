import { loadEncodings } from './relay/tokenizer.js';
/** The time kept at the end of the timeout for stopping calls and writing what they owe: a sixth, 1-5 s. */
function flushReserveMs(timeoutMs) {
    return Math.min(5000, Math.max(1000, Math.floor(timeoutMs / 6)), timeoutMs);
}
/** How long stopped streams get to send their last event and settle before connections are cut. */
const STOP_GRACE_MS = 500;
export function gracefulShutdown(app, opts) {
    const exit = opts.exit ?? ((code) => process.exit(code));
    const { ctx } = app;
    const reserve = flushReserveMs(opts.timeoutMs);
    let startedAt = 0;
    let stopTimer = null;
    let exitTimer = null;
    let stoppedCalls = false;
    let exited = false;
    const finish = (code) => {
        if (exited)
            return;
        exited = true;
        if (stopTimer)
            clearTimeout(stopTimer);
        if (exitTimer)
            clearTimeout(exitTimer);
        exit(code);
    };
    /** Stops the calls still in flight, then cuts every connection so nothing else holds the close open. */
    const stopCalls = (why) => {
        if (stoppedCalls)
            return;
        stoppedCalls = true;
        const running = ctx.relay.calls.stopAll();
        app.log.warn({ running, why }, 'stopping the calls still in flight: streams end with an error event and are billed for what they delivered');
        setTimeout(() => app.server.closeAllConnections(), STOP_GRACE_MS).unref();
    };
    /** The deadline: write what can be written in the time left, then exit. */
    const deadline = async (exitAt) => {
        stopCalls('deadline');
        app.log.error({ elapsedMs: Date.now() - startedAt }, 'shutdown reached its deadline; writing settlements and exiting');
        const left = await Promise.race([
            ctx.relay.settler.close(exitAt),
            new Promise((resolve) => setTimeout(() => resolve(ctx.relay.settler.pending), Math.max(0, exitAt - Date.now())).unref()),
        ]);
        if (left > 0)
            app.log.error({ pending: left }, 'settlements left unwritten');
        finish(1);
    };
    const schedule = (stopAt, exitAt) => {
        if (stopTimer)
            clearTimeout(stopTimer);
        if (exitTimer)
            clearTimeout(exitTimer);
        // Not unref'd: these are what guarantee the exit.
        stopTimer = setTimeout(() => stopCalls('deadline near'), Math.max(0, stopAt - Date.now()));
        exitTimer = setTimeout(() => void deadline(exitAt), Math.max(0, exitAt - reserve / 2 - Date.now()));
    };
    return (signal) => {
        if (exited)
            return;
        const now = Date.now();
        if (!startedAt) {
            startedAt = now;
            const end = now + opts.timeoutMs;
            app.log.info({ signal, timeoutMs: opts.timeoutMs }, 'shutting down');
            schedule(end - reserve, end);
            // Streams stopped at the deadline are billed on counted tokens: load the encodings while calls still drain.
            setImmediate(loadEncodings);
            app.close().then(() => finish(0), (err) => {
                app.log.error({ err }, 'error during shutdown');
                finish(1);
            });
            return;
        }
        app.log.warn({ signal }, 'second signal: stopping the calls in flight now, then exiting');
        stopCalls('second signal');
        schedule(now, Math.min(startedAt + opts.timeoutMs, now + reserve));
    };
}
//# sourceMappingURL=shutdown.js.map