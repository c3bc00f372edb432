import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { StreamCut } from './formats/passthrough-meter.js';
import { callsInFlight, FEW_CALLS, MANY_CALLS } from '../heap-growth.js';

/** What a call that meets a shutdown is told, in its format's error body or stream error event (clients retry 503s). */
export const SHUTDOWN_MESSAGE = '服务正在关闭，请稍后重试';
export const SHUTDOWN_CUT: StreamCut = { status: 503, message: SHUTDOWN_MESSAGE };

const STOP = Symbol('stop this relay call');
type Stop = (reason: StreamCut) => void;
type Stoppable = { [STOP]?: Stop };

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
  private readonly sockets = new Set<Socket>();
  private stopReason: StreamCut | null = null;
  /** Calls registered and not yet deleted (a plain count: the heap growth follows it). */
  private count = 0;

  /** Follows the server's connections (added and removed once per connection, not per call). */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Registers a call; it is stopped at once when the process is already stopping everything. */
  add(res: ServerResponse, stop: Stop): void {
    (res as Stoppable)[STOP] = stop;
    if (++this.count === MANY_CALLS) callsInFlight(this.count);
    if (this.stopReason) stop(this.stopReason);
  }

  delete(res: ServerResponse): void {
    const call = res as Stoppable;
    if (!call[STOP]) return;
    call[STOP] = undefined;
    if (--this.count === FEW_CALLS) callsInFlight(this.count);
  }

  /** The stop functions of the calls running now on the server's connections. */
  private running(): Stop[] {
    const stops: Stop[] = [];
    for (const socket of this.sockets) {
      // Node keeps the response a connection is answering as `_httpMessage` (set and cleared for every response).
      const stop = (socket as unknown as { _httpMessage?: Stoppable | null })._httpMessage?.[STOP];
      if (stop) stops.push(stop);
    }
    return stops;
  }

  /** Calls running now (those that came over a connection of the server). */
  get size(): number {
    return this.running().length;
  }

  /** Stops every call now and every call that starts later; answers how many were running. */
  stopAll(reason: StreamCut = SHUTDOWN_CUT): number {
    this.stopReason = reason;
    const running = this.running();
    for (const stop of running) stop(reason);
    return running.length;
  }
}
