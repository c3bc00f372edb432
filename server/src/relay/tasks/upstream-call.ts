import type { RoutedChannel } from '../../cache/routing.js';
import type { AppContext } from '../../context.js';
import type { UpstreamRequest } from '../types.js';

/*
 * Task upstreams answer small JSON bodies (a submission's code and id, a batch of task states): each call is read
 * whole, within a deadline, through the relay's upstream client (so its per-origin limit counts these calls too),
 * and through the channel's outbound proxy when it has one, as its relayed calls are.
 */

/** Submissions wait up to a minute (the established gateway's), polls 15 s. */
export const SUBMIT_TIMEOUT_MS = 60_000;
export const POLL_TIMEOUT_MS = 15_000;
/** A task answer larger than this is not what any task upstream sends: refused rather than held in memory. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export type TaskCallResult =
  | { kind: 'answer'; status: number; text: string; /** Parsed JSON, undefined when the body is not JSON. */ json: unknown }
  | { kind: 'unreachable'; reason: string };

export async function callTaskUpstream(ctx: AppContext, channel: Pick<RoutedChannel, 'settings'>, req: UpstreamRequest, timeoutMs: number): Promise<TaskCallResult> {
  try {
    const res = await ctx.relay.upstream.via(channel.settings?.proxy).send(req, AbortSignal.timeout(timeoutMs));
    const chunks: Buffer[] = [];
    let size = 0;
    // Leaving the loop early ends the iteration, which destroys the body (and its connection) without an error event.
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) break;
      chunks.push(chunk);
    }
    if (size > MAX_ANSWER_BYTES) return { kind: 'unreachable', reason: 'upstream answer too large' };
    const text = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { kind: 'answer', status: res.statusCode, text, json };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return { kind: 'unreachable', reason: timedOut ? 'upstream timeout' : err instanceof Error ? err.message : String(err) };
  }
}
