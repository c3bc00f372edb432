import type { IncomingHttpHeaders } from 'node:http';
import type { UpstreamRequest } from '../../types.js';
import type { BufferedCall, UpstreamClient, WholeAnswer } from '../../upstream.js';

/*
 * One client call made of several upstream calls (a polled task, embeddings sent in batches), answered as one: the
 * steps run one after another, and cancel() (client gone) stops the wait and the call under way.
 */

export class Cancelled extends Error {
  constructor() {
    super('the call was cancelled');
  }
}

export interface Steps {
  /** One upstream call; rejects with Cancelled once the whole call is cancelled. */
  send(req: UpstreamRequest): Promise<WholeAnswer>;
  /** A wait between calls; rejects with Cancelled once the whole call is cancelled. */
  pause(ms: number): Promise<void>;
}

export function runSteps(client: Pick<UpstreamClient, 'fetch'>, run: (steps: Steps) => Promise<WholeAnswer>): BufferedCall {
  let current: BufferedCall | null = null;
  let cancelled = false;
  let timer: NodeJS.Timeout | null = null;
  // Settles only by cancel(): every wait races it, so nothing outlives a cancelled call.
  let abort!: (err: Error) => void;
  const aborted = new Promise<never>((_, reject) => (abort = reject));
  aborted.catch(() => undefined);

  const steps: Steps = {
    async send(req) {
      if (cancelled) throw new Cancelled();
      const call = client.fetch(req);
      current = call;
      try {
        return await Promise.race([call.answer, aborted]);
      } finally {
        current = null;
      }
    },
    pause: (ms) =>
      Promise.race([
        new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            timer = null;
            resolve();
          }, ms);
        }),
        aborted,
      ]),
  };

  return {
    answer: run(steps),
    cancel() {
      if (cancelled) return;
      cancelled = true;
      (current as BufferedCall | null)?.cancel();
      if (timer) clearTimeout(timer);
      abort(new Cancelled());
    },
  };
}

export const JSON_HEADERS: IncomingHttpHeaders = { 'content-type': 'application/json' };

export const ok = (status: number) => status >= 200 && status < 300;

/** A JSON answer written here (a refusal in DashScope's native shape, or answers joined into one). */
export function jsonAnswer(status: number, body: unknown): WholeAnswer {
  return { statusCode: status, headers: JSON_HEADERS, body: Buffer.from(JSON.stringify(body)) };
}

/** The body as a JSON object, or null. */
export function parseObject<T>(body: Buffer): T | null {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as T) : null;
  } catch {
    return null;
  }
}
