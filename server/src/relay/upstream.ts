import { Agent, request, type Dispatcher } from 'undici';
import type { UpstreamRequest } from './types.js';

/*
 * One keep-alive connection pool per upstream origin (undici's Agent keeps them), shared by every request.
 * headersTimeout bounds the wait for an answer (RELAY_TIMEOUT, 0 = none); bodyTimeout is the idle time allowed
 * between two chunks of a streamed body (STREAMING_TIMEOUT).
 */

export interface UpstreamClient {
  send(req: UpstreamRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

export function createUpstreamClient(relayTimeoutSeconds: number, streamingTimeoutSeconds: number): UpstreamClient {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    connections: 512,
    pipelining: 1,
    headersTimeout: relayTimeoutSeconds * 1000,
    bodyTimeout: streamingTimeoutSeconds * 1000,
    connect: { timeout: 10_000 },
  });
  return {
    send(req, signal) {
      return request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body as Dispatcher.DispatchOptions['body'],
        dispatcher: agent,
        signal,
      });
    },
    close: () => agent.close(),
  };
}
