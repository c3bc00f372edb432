import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request, util as undiciUtil, type Dispatcher } from 'undici';
import type { UpstreamRequest } from './types.js';
import { UpstreamBusy, UpstreamLimit, type OriginLoad } from './upstream-limit.js';
import { proxyDispatcher, type AgentOptions } from './proxy-dispatchers.js';

/*
 * One keep-alive connection pool per upstream origin (undici's Agent keeps them), shared by every request.
 * headersTimeout bounds the wait for an answer (RELAY_TIMEOUT, 0 = none); bodyTimeout is the idle time allowed
 * between two chunks of a streamed body (STREAMING_TIMEOUT). Connecting is bounded by RELAY_TIMEOUT too (10 s at
 * most): a host that never accepts must not hold a call longer than an upstream that never answers.
 */

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A call whose answer is read whole (non-stream answers): undici's dispatch() with a plain handler, which costs far
 * less per call than request() (no AbortSignal, no body stream). `answer` resolves with status, headers and every
 * body byte, or rejects: with an UpstreamCut when the upstream answered but broke off (or the call was cancelled)
 * mid-body, with another error when it could not be reached at all.
 */
export interface BufferedCall {
  answer: Promise<WholeAnswer>;
  /** Stops the call (client gone). Harmless once it finished. */
  cancel(): void;
}

/** An answer read whole. */
export interface WholeAnswer {
  statusCode: number;
  /** Parsed when first read: most answers only need a few of them (see `header`). */
  readonly headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The upstream's answer started (status and headers came) and then broke off. */
export class UpstreamCut extends Error {
  constructor(
    readonly statusCode: number,
    readonly headers: IncomingHttpHeaders,
    override readonly cause: Error,
  ) {
    super(`the upstream answer broke off: ${cause.message}`);
  }
}

/** Raw header pairs from undici, parsed into an object only when someone reads it. */
class LazyHeaders {
  private raw: Buffer[] = [];
  private parsed: IncomingHttpHeaders | null = null;

  setRaw(raw: Buffer[]): void {
    this.raw = raw;
    this.parsed = null;
  }

  get headers(): IncomingHttpHeaders {
    this.parsed ??= undiciUtil.parseHeaders(this.raw) as IncomingHttpHeaders;
    return this.parsed;
  }
}

/**
 * A call whose answer is delivered as it arrives (streams, speech), through undici's dispatch() like BufferedCall:
 * no AbortSignal, no Readable, no async iterator per chunk. `head` resolves at the status line and headers; the body
 * is then either handed chunk by chunk to a consumer (`consume`) or read whole (`text`, for error answers).
 */
export interface StreamingCall {
  head: Promise<StreamedResponse>;
  /** Stops the call (client gone); a consumer then sees the body end as 'failed'. Harmless once it finished. */
  cancel(): void;
}

/** How a streamed body ended: the upstream finished it, or it broke (upstream gone, idle timeout, cancelled). */
export type BodyEnd = 'complete' | 'failed';

export interface StreamedResponse {
  statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /**
   * Hands every body chunk to `onChunk` as it arrives; `onChunk` returns false to pause the upstream until
   * `resume()` (the client's socket is full). Resolves when the body ends. A chunk that makes `onChunk` throw stops
   * the call and ends the body as 'failed'.
   */
  consume(onChunk: (chunk: Buffer) => boolean): Promise<BodyEnd>;
  /** Continues after `onChunk` asked for a pause. */
  resume(): void;
  /** Stops reading: the upstream call is aborted and a consumer sees the body end as 'failed'. */
  cancel(): void;
  /** The whole body as text ('' when it cannot be read), for answers that are not relayed (errors). */
  text(): Promise<string>;
}

/** The configured waits, for transports of providers' own (a WebSocket) that honour them like this client. */
export interface UpstreamTimeouts {
  /** RELAY_TIMEOUT: the wait for an answer's head; 0 = none. */
  relaySeconds: number;
  /** STREAMING_TIMEOUT: the idle time allowed between two chunks of a body; 0 = none. */
  streamingSeconds: number;
}

/** The ways to call an upstream, directly or through one proxy. */
export interface UpstreamCalls {
  readonly timeouts: UpstreamTimeouts;
  /** Any call with an AbortSignal (channel tests): undici's request(). */
  send(req: UpstreamRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData>;
  /** Relayed answers delivered as they arrive. */
  stream(req: UpstreamRequest): StreamingCall;
  /** Answers read whole. */
  fetch(req: UpstreamRequest): BufferedCall;
}

export interface UpstreamClient extends UpstreamCalls {
  /** The calls of a channel: through its proxy (a URL from channel settings), or direct for null. */
  via(proxy: string | null | undefined): UpstreamCalls;
  /** Calls in flight per upstream origin (those with any). */
  inFlight(): Record<string, number>;
  close(): Promise<void>;
}

const EMPTY = Buffer.alloc(0);

function abortError(): Error {
  // What request() rejects with when its AbortSignal fires without a reason.
  return new DOMException('This operation was aborted', 'AbortError');
}

/**
 * What both handlers share: the raw headers, and the abort function undici hands over, used when the caller cancels.
 * The legacy handler interface is undici's cheapest (no controller, raw headers).
 */
abstract class CancellableHandler extends LazyHeaders {
  protected abort: ((err?: Error) => void) | null = null;
  protected cancelled = false;
  /** The answer ended, whole or not: nothing left to cancel. */
  protected over = false;
  /** The origin's count this call holds a place in, until it ends. */
  load: OriginLoad | null = null;

  /** Gives the call's place back (once), when the upstream is done with it. */
  protected release(): void {
    const load = this.load;
    if (load) {
      load.inFlight--;
      this.load = null;
    }
  }

  cancel(): void {
    if (this.over || this.cancelled) return;
    this.cancelled = true;
    if (this.abort) this.abort(abortError());
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.cancelled) {
      abort(abortError());
      return;
    }
    this.abort = abort;
  }
}

/** Collects one answer. */
class BufferingHandler extends CancellableHandler implements Dispatcher.DispatchHandler, BufferedCall, WholeAnswer {
  answer: Promise<WholeAnswer>;
  statusCode = 0;
  body: Buffer = EMPTY;
  private resolveAnswer!: (r: WholeAnswer) => void;
  private rejectAnswer!: (err: Error) => void;
  private chunks: Buffer[] = [];
  private gotHead = false;

  constructor() {
    super();
    this.answer = new Promise<WholeAnswer>((resolve, reject) => {
      this.resolveAnswer = resolve;
      this.rejectAnswer = reject;
    });
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // informational: the answer follows
    this.statusCode = statusCode;
    this.setRaw(rawHeaders);
    this.gotHead = true;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.over = true;
    this.abort = null;
    this.release();
    const { chunks } = this;
    this.body = chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    this.chunks = [];
    this.resolveAnswer(this);
  }

  onError(err: Error): void {
    if (this.over) return;
    this.over = true;
    this.abort = null;
    this.release();
    this.chunks = [];
    this.rejectAnswer(this.gotHead ? new UpstreamCut(this.statusCode, this.headers, err) : err);
  }
}

const utf8 = new TextDecoder();

/** A streamed body read whole as text ('' when it broke off), for answers that are not relayed (errors). */
export async function readBodyText(res: Pick<StreamedResponse, 'consume'>): Promise<string> {
  const chunks: Buffer[] = [];
  const end = await res.consume((chunk) => {
    chunks.push(chunk);
    return true;
  });
  return end === 'complete' ? utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) : '';
}

/** Body bytes held for a consumer that is not attached yet, past which the upstream is paused. */
const EARLY_LIMIT = 64 * 1024;

/**
 * Passes an answer on chunk by chunk. Chunks that arrive before a consumer is attached wait for it (past 64 KiB the
 * upstream is paused); a consumer that asks for a pause pauses the upstream socket (undici's body timeout does not
 * run while paused).
 */
class StreamingHandler extends CancellableHandler implements Dispatcher.DispatchHandler, StreamingCall, StreamedResponse {
  head: Promise<StreamedResponse>;
  statusCode = 0;
  private resolveHead!: (r: StreamedResponse) => void;
  private rejectHead!: (err: Error) => void;
  private resumeUpstream: (() => void) | null = null;
  private gotHead = false;
  private ended: BodyEnd | null = null;
  /** Chunks that came before consume() (or text()) was called. */
  private early: Buffer[] = [];
  private earlyBytes = 0;
  private onChunk: ((chunk: Buffer) => boolean) | null = null;
  private resolveEnd: ((end: BodyEnd) => void) | null = null;

  constructor() {
    super();
    this.head = new Promise<StreamedResponse>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
  }

  consume(onChunk: (chunk: Buffer) => boolean): Promise<BodyEnd> {
    return new Promise<BodyEnd>((resolve) => {
      this.resolveEnd = resolve;
      this.onChunk = onChunk;
      const early = this.early;
      this.early = [];
      this.earlyBytes = 0;
      let flowing = true;
      for (const chunk of early) {
        if (this.cancelled) break;
        flowing = this.deliver(chunk);
      }
      if (this.ended) this.finish(this.ended);
      else if (flowing) this.resume();
    });
  }

  resume(): void {
    const resume = this.resumeUpstream;
    if (resume && !this.ended) resume();
  }

  text(): Promise<string> {
    return readBodyText(this);
  }

  private deliver(chunk: Buffer): boolean {
    try {
      return this.onChunk!(chunk);
    } catch {
      this.cancel();
      return false;
    }
  }

  private finish(end: BodyEnd): void {
    const resolve = this.resolveEnd;
    if (!resolve) return;
    this.resolveEnd = null;
    this.onChunk = null;
    resolve(end);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // informational: the answer follows
    this.statusCode = statusCode;
    this.setRaw(rawHeaders);
    this.resumeUpstream = resume;
    this.gotHead = true;
    this.resolveHead(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.onChunk) return this.deliver(chunk);
    // Nobody reads the body yet (the head is on its way to the pipeline): keep what comes, pausing past a bound.
    this.early.push(chunk);
    this.earlyBytes += chunk.length;
    return this.earlyBytes < EARLY_LIMIT;
  }

  onComplete(): void {
    this.ended = 'complete';
    this.over = true;
    this.abort = null;
    this.release();
    if (this.early.length === 0) this.finish('complete');
  }

  onError(err: Error): void {
    if (this.ended) return;
    this.ended = 'failed';
    this.over = true;
    this.abort = null;
    this.release();
    if (!this.gotHead) {
      this.rejectHead(err);
      return;
    }
    this.early = [];
    this.finish('failed');
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

export interface UpstreamClientOptions {
  /** RELAY_TIMEOUT: the wait for an answer's head (and for connecting, 10 s at most); 0 = none. */
  relayTimeoutSeconds: number;
  /** STREAMING_TIMEOUT: the idle time allowed between two chunks of a body. */
  streamingTimeoutSeconds: number;
  /** UPSTREAM_MAX_CONNECTIONS: calls in flight to one origin at most (0: no limit); past it a call fails at once. */
  maxCallsPerOrigin?: number;
  /** UPSTREAM_HTTP2: offer HTTP/2 to TLS upstreams (ALPN), which then carry many calls on one connection. */
  http2?: boolean;
}

/**
 * Connections are not capped by the pool (undici would queue calls past a cap, and a stream holds its connection
 * for minutes): the limit counts calls instead, and refuses the call past it (UpstreamBusy).
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const { relayTimeoutSeconds, streamingTimeoutSeconds } = options;
  const limit = new UpstreamLimit(options.maxCallsPerOrigin ?? 0);
  const http2 = options.http2 ?? false;
  const agentOptions: AgentOptions = {
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    connections: null,
    // HTTP/1.1 connections carry one call at a time (undici's default there); HTTP/2 ones as many as undici sends.
    ...(http2 ? { allowH2: true } : { pipelining: 1 }),
    headersTimeout: relayTimeoutSeconds * 1000,
    bodyTimeout: streamingTimeoutSeconds * 1000,
    connect: { timeout: relayTimeoutSeconds > 0 ? Math.min(CONNECT_TIMEOUT_MS, relayTimeoutSeconds * 1000) : CONNECT_TIMEOUT_MS },
  };
  const agent = new Agent(agentOptions);
  const timeouts = { relaySeconds: relayTimeoutSeconds, streamingSeconds: streamingTimeoutSeconds };
  const callsThrough = (dispatcher: Dispatcher): UpstreamCalls => ({
    timeouts,
    send(req, signal) {
      return request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body as Dispatcher.DispatchOptions['body'],
        dispatcher,
        signal,
      });
    },
    stream(req) {
      return dispatchTo(dispatcher, limit, req, new StreamingHandler(), http2);
    },
    fetch(req) {
      return dispatchTo(dispatcher, limit, req, new BufferingHandler(), http2);
    },
  });
  const direct = callsThrough(agent);
  // One dispatcher (and connection pool) per proxy URL, made when a call first needs it.
  const proxied = new Map<string, { dispatcher: Dispatcher; calls: UpstreamCalls }>();
  return {
    ...direct,
    via(proxy) {
      if (!proxy) return direct;
      let found = proxied.get(proxy);
      if (!found) {
        const dispatcher = proxyDispatcher(proxy, agentOptions);
        const calls = callsThrough(dispatcher);
        // undici's ProxyAgent writes the host header into a request's headers, which providers may share frozen.
        const own = (req: UpstreamRequest): UpstreamRequest => ({ ...req, headers: { ...req.headers } });
        found = {
          dispatcher,
          calls: { timeouts, send: (req, signal) => calls.send(own(req), signal), stream: (req) => calls.stream(own(req)), fetch: (req) => calls.fetch(own(req)) },
        };
        proxied.set(proxy, found);
      }
      return found.calls;
    },
    inFlight: () => limit.snapshot(),
    close: async () => {
      await Promise.all([agent.close(), ...[...proxied.values()].map((p) => p.dispatcher.close())]);
    },
  };
}

function dispatchTo<H extends CancellableHandler & Dispatcher.DispatchHandler & { onError(err: Error): void }>(
  agent: Dispatcher,
  limit: UpstreamLimit,
  req: UpstreamRequest,
  handler: H,
  multiplex: boolean,
): H {
  try {
    const { origin, path } = target(req.url);
    const load = limit.loadOf(origin);
    if (!limit.enter(load)) {
      handler.onError(new UpstreamBusy(origin));
      return handler;
    }
    handler.load = load;
    // undici puts a POST on an HTTP/2 session only alone unless told it may share it (`idempotent`); nothing retries it.
    const body = req.body as Dispatcher.DispatchOptions['body'];
    agent.dispatch({ origin, path, method: req.method, headers: req.headers, body, ...(multiplex ? { idempotent: true } : {}) }, handler);
  } catch (err) {
    handler.onError(err as Error);
  }
  return handler;
}
