/** What a call that meets a shutdown is told, in its format's error body or stream error event (clients retry 503s). */
export const SHUTDOWN_MESSAGE = '服务正在关闭，请稍后重试';
export const SHUTDOWN_CUT = { status: 503, message: SHUTDOWN_MESSAGE };
const STOP = Symbol('stop this relay call');
/**
 * The relay calls this process is serving, each with a way to stop it. A shutdown that reaches its deadline stops
 * those still running: a call still waiting for its upstream is answered 503 and refunded; a stream under way is
 * ended with its format's error event and billed for what it delivered, as a client that left is billed.
 *
 * A call's stop function rides on its own response, and the calls are found through the server's connections (each
 * socket's current response). A collection of calls would be simpler, but every call writing its closure into a
 * long-lived Set or Map cost ~50 µs of CPU per call under load (measured with `npm run bench`: the relay went from
 * 1.2x to 1.8x the minimal relay's CPU), the closures keeping young objects reachable from the old generation.
 */
export class InFlightCalls {
    sockets = new Set();
    stopReason = null;
    /** Follows the server's connections (added and removed once per connection, not per call). */
    watch(server) {
        server.on('connection', (socket) => {
            this.sockets.add(socket);
            socket.once('close', () => this.sockets.delete(socket));
        });
    }
    /** Registers a call; it is stopped at once when the process is already stopping everything. */
    add(res, stop) {
        res[STOP] = stop;
        if (this.stopReason)
            stop(this.stopReason);
    }
    delete(res) {
        res[STOP] = undefined;
    }
    /** The stop functions of the calls running now on the server's connections. */
    running() {
        const stops = [];
        for (const socket of this.sockets) {
            // Node keeps the response a connection is answering as `_httpMessage` (set and cleared for every response).
            const stop = socket._httpMessage?.[STOP];
            if (stop)
                stops.push(stop);
        }
        return stops;
    }
    /** Calls running now (those that came over a connection of the server). */
    get size() {
        return this.running().length;
    }
    /** Stops every call now and every call that starts later; answers how many were running. */
    stopAll(reason = SHUTDOWN_CUT) {
        this.stopReason = reason;
        const running = this.running();
        for (const stop of running)
            stop(reason);
        return running.length;
    }
}
//# sourceMappingURL=in-flight.js.map