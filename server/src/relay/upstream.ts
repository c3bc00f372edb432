import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request, util as undiciUtil, type Dispatcher } from 'undici';
import type { UpstreamRequest } from './types.js';

/*
 * One keep-alive connection pool per upstream origin (undici's Agent keeps them), shared by every request.
 * headersTimeout bounds the wait for an answer (RELAY_TIMEOUT, 0 = none); bodyTimeout is the idle time allowed
 * between two chunks of a streamed body (STREAMING_TIMEOUT).
 */

/**
 * A call whose answer is read whole (non-stream answers): undici's dispatch() with a plain handler, which costs far
 * less per call than request() (no AbortSignal, no body stream). `head` resolves at the status line and headers (or
 * rejects when the upstream cannot be reached); body() then gives every byte (or rejects when the upstream fails
 * mid-body or the call was cancelled).
 */
export interface BufferedCall {
  head: Promise<BufferedResponse>;
  /** Stops the call (client gone). Harmless once it finished. */
  cancel(): void;
}

export interface BufferedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body(): Promise<Buffer>;
}

export interface UpstreamClient {
  /** Streamed answers: the body is read as it arrives. */
  send(req: UpstreamRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData>;
  /** Answers read whole. */
  fetch(req: UpstreamRequest): BufferedCall;
  close(): Promise<void>;
}

const EMPTY = Buffer.alloc(0);

function abortError(): Error {
  // What request() rejects with when its AbortSignal fires without a reason.
  return new DOMException('This operation was aborted', 'AbortError');
}

/** Collects one answer; the legacy handler interface is undici's cheapest (no controller, raw headers). */
class BufferingHandler implements Dispatcher.DispatchHandler, BufferedCall, BufferedResponse {
  head: Promise<BufferedResponse>;
  statusCode = 0;
  headers: IncomingHttpHeaders = {};
  private resolveHead!: (r: BufferedResponse) => void;
  private rejectHead!: (err: Error) => void;
  private abort: ((err?: Error) => void) | null = null;
  private chunks: Buffer[] = [];
  private gotHead = false;
  private finished = false;
  private error: Error | null = null;
  private cancelled = false;
  private waiter: { resolve: (b: Buffer) => void; reject: (err: Error) => void } | null = null;

  constructor() {
    this.head = new Promise<BufferedResponse>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
  }

  cancel(): void {
    if (this.finished || this.cancelled) return;
    this.cancelled = true;
    if (this.abort) this.abort(abortError());
  }

  body(): Promise<Buffer> {
    if (this.error) return Promise.reject(this.error);
    if (this.finished) return Promise.resolve(this.joined());
    return new Promise<Buffer>((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  private joined(): Buffer {
    const { chunks } = this;
    if (chunks.length === 0) return EMPTY;
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.cancelled) {
      abort(abortError());
      return;
    }
    this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // informational: the answer follows
    this.statusCode = statusCode;
    this.headers = undiciUtil.parseHeaders(rawHeaders) as IncomingHttpHeaders;
    this.gotHead = true;
    this.resolveHead(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.finished = true;
    this.abort = null;
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      w.resolve(this.joined());
    }
  }

  onError(err: Error): void {
    if (this.finished) return;
    this.error = err;
    this.abort = null;
    this.chunks = [];
    if (!this.gotHead) {
      this.rejectHead(err);
      return;
    }
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      w.reject(err);
    }
  }
}

/** origin and path of each upstream URL, parsed once (a channel's URL rarely changes). */
const targets = new Map<string, { origin: string; path: string }>();

function target(url: string): { origin: string; path: string } {
  let t = targets.get(url);
  if (!t) {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`unsupported upstream URL ${url}`);
    t = { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
    if (targets.size >= 1000) targets.clear();
    targets.set(url, t);
  }
  return t;
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
    fetch(req) {
      const handler = new BufferingHandler();
      try {
        const { origin, path } = target(req.url);
        agent.dispatch(
          { origin, path, method: req.method, headers: req.headers, body: req.body as Dispatcher.DispatchOptions['body'] },
          handler,
        );
      } catch (err) {
        handler.onError(err as Error);
      }
      return handler;
    },
    close: () => agent.close(),
  };
}
