import { Agent, request, util as undiciUtil } from 'undici';
import { UpstreamBusy, UpstreamLimit } from './upstream-limit.js';
/*
 * One keep-alive connection pool per upstream origin (undici's Agent keeps them), shared by every request.
 * headersTimeout bounds the wait for an answer (RELAY_TIMEOUT, 0 = none); bodyTimeout is the idle time allowed
 * between two chunks of a streamed body (STREAMING_TIMEOUT). Connecting is bounded by RELAY_TIMEOUT too (10 s at
 * most): a host that never accepts must not hold a call longer than an upstream that never answers.
 */
const CONNECT_TIMEOUT_MS = 10_000;
/** The upstream's answer started (status and headers came) and then broke off. */
export class UpstreamCut extends Error {
    statusCode;
    headers;
    cause;
    constructor(statusCode, headers, cause) {
        super(`the upstream answer broke off: ${cause.message}`);
        this.statusCode = statusCode;
        this.headers = headers;
        this.cause = cause;
    }
}
/** Raw header pairs from undici, parsed into an object only when someone reads it. */
class LazyHeaders {
    raw = [];
    parsed = null;
    setRaw(raw) {
        this.raw = raw;
        this.parsed = null;
    }
    get headers() {
        this.parsed ??= undiciUtil.parseHeaders(this.raw);
        return this.parsed;
    }
}
const EMPTY = Buffer.alloc(0);
function abortError() {
    // What request() rejects with when its AbortSignal fires without a reason.
    return new DOMException('This operation was aborted', 'AbortError');
}
/**
 * What both handlers share: the raw headers, and the abort function undici hands over, used when the caller cancels.
 * The legacy handler interface is undici's cheapest (no controller, raw headers).
 */
class CancellableHandler extends LazyHeaders {
    abort = null;
    cancelled = false;
    /** The answer ended, whole or not: nothing left to cancel. */
    over = false;
    /** The origin's count this call holds a place in, until it ends. */
    load = null;
    /** Gives the call's place back (once), when the upstream is done with it. */
    release() {
        const load = this.load;
        if (load) {
            load.inFlight--;
            this.load = null;
        }
    }
    cancel() {
        if (this.over || this.cancelled)
            return;
        this.cancelled = true;
        if (this.abort)
            this.abort(abortError());
    }
    onConnect(abort) {
        if (this.cancelled) {
            abort(abortError());
            return;
        }
        this.abort = abort;
    }
}
/** Collects one answer. */
class BufferingHandler extends CancellableHandler {
    answer;
    statusCode = 0;
    body = EMPTY;
    resolveAnswer;
    rejectAnswer;
    chunks = [];
    gotHead = false;
    constructor() {
        super();
        this.answer = new Promise((resolve, reject) => {
            this.resolveAnswer = resolve;
            this.rejectAnswer = reject;
        });
    }
    onHeaders(statusCode, rawHeaders) {
        if (statusCode < 200)
            return true; // informational: the answer follows
        this.statusCode = statusCode;
        this.setRaw(rawHeaders);
        this.gotHead = true;
        return true;
    }
    onData(chunk) {
        this.chunks.push(chunk);
        return true;
    }
    onComplete() {
        this.over = true;
        this.abort = null;
        this.release();
        const { chunks } = this;
        this.body = chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        this.chunks = [];
        this.resolveAnswer(this);
    }
    onError(err) {
        if (this.over)
            return;
        this.over = true;
        this.abort = null;
        this.release();
        this.chunks = [];
        this.rejectAnswer(this.gotHead ? new UpstreamCut(this.statusCode, this.headers, err) : err);
    }
}
const utf8 = new TextDecoder();
/** Body bytes held for a consumer that is not attached yet, past which the upstream is paused. */
const EARLY_LIMIT = 64 * 1024;
/**
 * Passes an answer on chunk by chunk. Chunks that arrive before a consumer is attached wait for it (past 64 KiB the
 * upstream is paused); a consumer that asks for a pause pauses the upstream socket (undici's body timeout does not
 * run while paused).
 */
class StreamingHandler extends CancellableHandler {
    head;
    statusCode = 0;
    resolveHead;
    rejectHead;
    resumeUpstream = null;
    gotHead = false;
    ended = null;
    /** Chunks that came before consume() (or text()) was called. */
    early = [];
    earlyBytes = 0;
    onChunk = null;
    resolveEnd = null;
    constructor() {
        super();
        this.head = new Promise((resolve, reject) => {
            this.resolveHead = resolve;
            this.rejectHead = reject;
        });
    }
    consume(onChunk) {
        return new Promise((resolve) => {
            this.resolveEnd = resolve;
            this.onChunk = onChunk;
            const early = this.early;
            this.early = [];
            this.earlyBytes = 0;
            let flowing = true;
            for (const chunk of early) {
                if (this.cancelled)
                    break;
                flowing = this.deliver(chunk);
            }
            if (this.ended)
                this.finish(this.ended);
            else if (flowing)
                this.resume();
        });
    }
    resume() {
        const resume = this.resumeUpstream;
        if (resume && !this.ended)
            resume();
    }
    async text() {
        const chunks = [];
        const end = await this.consume((chunk) => {
            chunks.push(chunk);
            return true;
        });
        return end === 'complete' ? utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) : '';
    }
    deliver(chunk) {
        try {
            return this.onChunk(chunk);
        }
        catch {
            this.cancel();
            return false;
        }
    }
    finish(end) {
        const resolve = this.resolveEnd;
        if (!resolve)
            return;
        this.resolveEnd = null;
        this.onChunk = null;
        resolve(end);
    }
    onHeaders(statusCode, rawHeaders, resume) {
        if (statusCode < 200)
            return true; // informational: the answer follows
        this.statusCode = statusCode;
        this.setRaw(rawHeaders);
        this.resumeUpstream = resume;
        this.gotHead = true;
        this.resolveHead(this);
        return true;
    }
    onData(chunk) {
        if (this.onChunk)
            return this.deliver(chunk);
        // Nobody reads the body yet (the head is on its way to the pipeline): keep what comes, pausing past a bound.
        this.early.push(chunk);
        this.earlyBytes += chunk.length;
        return this.earlyBytes < EARLY_LIMIT;
    }
    onComplete() {
        this.ended = 'complete';
        this.over = true;
        this.abort = null;
        this.release();
        if (this.early.length === 0)
            this.finish('complete');
    }
    onError(err) {
        if (this.ended)
            return;
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
const targets = new Map();
function target(url) {
    let t = targets.get(url);
    if (!t) {
        const u = new URL(url);
        if (u.protocol !== 'http:' && u.protocol !== 'https:')
            throw new TypeError(`unsupported upstream URL ${url}`);
        t = { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
        if (targets.size >= 1000)
            targets.clear();
        targets.set(url, t);
    }
    return t;
}
/**
 * Connections are not capped by the pool (undici would queue calls past a cap, and a stream holds its connection
 * for minutes): the limit counts calls instead, and refuses the call past it (UpstreamBusy).
 */
export function createUpstreamClient(options) {
    const { relayTimeoutSeconds, streamingTimeoutSeconds } = options;
    const limit = new UpstreamLimit(options.maxCallsPerOrigin ?? 0);
    const http2 = options.http2 ?? false;
    const agent = new Agent({
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 600_000,
        connections: null,
        // HTTP/1.1 connections carry one call at a time (undici's default there); HTTP/2 ones as many as undici sends.
        ...(http2 ? { allowH2: true } : { pipelining: 1 }),
        headersTimeout: relayTimeoutSeconds * 1000,
        bodyTimeout: streamingTimeoutSeconds * 1000,
        connect: { timeout: relayTimeoutSeconds > 0 ? Math.min(CONNECT_TIMEOUT_MS, relayTimeoutSeconds * 1000) : CONNECT_TIMEOUT_MS },
    });
    return {
        send(req, signal) {
            return request(req.url, {
                method: req.method,
                headers: req.headers,
                body: req.body,
                dispatcher: agent,
                signal,
            });
        },
        stream(req) {
            return dispatchTo(agent, limit, req, new StreamingHandler(), http2);
        },
        fetch(req) {
            return dispatchTo(agent, limit, req, new BufferingHandler(), http2);
        },
        inFlight: () => limit.snapshot(),
        close: () => agent.close(),
    };
}
function dispatchTo(agent, limit, req, handler, multiplex) {
    try {
        const { origin, path } = target(req.url);
        const load = limit.loadOf(origin);
        if (!limit.enter(load)) {
            handler.onError(new UpstreamBusy(origin));
            return handler;
        }
        handler.load = load;
        // undici puts a POST on an HTTP/2 session only alone unless told it may share it (`idempotent`); nothing retries it.
        const body = req.body;
        agent.dispatch({ origin, path, method: req.method, headers: req.headers, body, ...(multiplex ? { idempotent: true } : {}) }, handler);
    }
    catch (err) {
        handler.onError(err);
    }
    return handler;
}
//# sourceMappingURL=upstream.js.map