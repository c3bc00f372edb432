import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type WebSocket from 'ws';
import type { UpstreamRequest } from '../../types.js';
import { readBodyText, UpstreamCut, type BodyEnd, type BufferedCall, type StreamedResponse, type StreamingCall, type UpstreamTimeouts, type WholeAnswer } from '../../upstream.js';
import { frameErrorCode, frameErrorStatus } from './errors.js';
import { isLastFrame } from './response.js';
import type { SparkFrame } from './types.js';

/*
 * One Spark call over a WebSocket, presented as the HTTP answers the pipeline reads: the handshake, the request
 * frame, then answer frames until the last (status 2), after which Spark expects the socket closed. The first frame
 * plays the part of a status line: an error frame there (header.code != 0), or a refused handshake, is a refusal with
 * the status its code stands for; otherwise the answer is 200 and its frames follow — as one SSE event each for a
 * stream, as the JSON array of them for an answer read whole (where an error frame anywhere refuses the call, since
 * nothing has reached the client yet).
 *
 * Timeouts follow the HTTP client's: RELAY_TIMEOUT bounds the handshake and the wait for the first frame (connecting
 * 10 s at most), STREAMING_TIMEOUT the silence between two frames (not counted while the client's socket is full).
 */

const CONNECT_TIMEOUT_MS = 10_000;
const SSE_HEADERS: IncomingHttpHeaders = { 'content-type': 'text/event-stream' };
const JSON_HEADERS: IncomingHttpHeaders = { 'content-type': 'application/json' };
const OPEN_LIST = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE_LIST = Buffer.from(']');
const SSE_DATA = Buffer.from('data: ');
const SSE_END = Buffer.from('\n\n');

class SocketFailure extends Error {}

/** What the exchange reports to the answer it feeds. */
interface FrameSink {
  /** The call was refused: a handshake answered with another status, or an error frame. */
  refused(status: number, headers: IncomingHttpHeaders, body: string): void;
  /** One answer frame (raw text and parsed). */
  frame(raw: Buffer, frame: SparkFrame): void;
  /** No more frames: the last came ('complete'), or the exchange broke off ('failed'). */
  ended(end: BodyEnd, err?: Error): void;
}

// Loaded on the first Spark call, not at every start of the server.
let webSocket: Promise<typeof WebSocket> | null = null;
const loadWebSocket = () => (webSocket ??= import('ws').then((m) => m.default));

/** The WebSocket exchange itself: signs nothing, knows frames only by their header. */
class SparkSocket {
  private ws: WebSocket | null = null;
  private over = false;
  private frames = 0;
  private paused = false;
  private firstFrameTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: FrameSink,
    private readonly timeouts: UpstreamTimeouts,
  ) {}

  open(req: UpstreamRequest): void {
    loadWebSocket().then(
      (Socket) => this.connect(Socket, req),
      (err: Error) => this.end('failed', err),
    );
  }

  private connect(Socket: typeof WebSocket, req: UpstreamRequest): void {
    if (this.over) return;
    const relayMs = this.timeouts.relaySeconds * 1000;
    let ws: WebSocket;
    try {
      ws = new Socket(req.url, { handshakeTimeout: relayMs > 0 ? Math.min(CONNECT_TIMEOUT_MS, relayMs) : CONNECT_TIMEOUT_MS, perMessageDeflate: false });
    } catch (err) {
      queueMicrotask(() => this.end('failed', err as Error));
      return;
    }
    this.ws = ws;
    if (relayMs > 0) this.firstFrameTimer = setTimeout(() => this.end('failed', new SocketFailure('no answer frame within RELAY_TIMEOUT')), relayMs);
    ws.on('unexpected-response', (_req, res) => this.handshakeRefused(res));
    ws.on('open', () => {
      ws.send(typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : '');
      this.touch();
    });
    ws.on('message', (data: Buffer) => this.message(data));
    ws.on('error', (err) => this.end('failed', err));
    ws.on('close', () => this.end('failed', new SocketFailure('the socket closed before the last frame')));
  }

  pause(): void {
    if (this.over || !this.ws) return;
    this.paused = true;
    this.clearIdle();
    this.ws.pause();
  }

  resume(): void {
    if (this.over || !this.ws || !this.paused) return;
    this.paused = false;
    this.ws.resume();
    this.touch();
  }

  cancel(): void {
    this.end('failed', new SocketFailure('the call was cancelled'));
  }

  private handshakeRefused(res: IncomingMessage): void {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', () => this.refuse(res.statusCode ?? 502, res.headers, ''));
    res.on('end', () => this.refuse(res.statusCode ?? 502, res.headers, Buffer.concat(chunks).toString('utf8')));
  }

  private refuse(status: number, headers: IncomingHttpHeaders, body: string): void {
    if (this.over) return;
    this.finish();
    this.sink.refused(status, headers, body);
  }

  private message(data: Buffer): void {
    if (this.over) return;
    let frame: SparkFrame;
    try {
      const parsed: unknown = JSON.parse(data.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      frame = parsed as SparkFrame;
    } catch {
      return this.end('failed', new SocketFailure('a frame that is not a JSON object'));
    }
    const first = this.frames++ === 0;
    if (first && this.firstFrameTimer) {
      clearTimeout(this.firstFrameTimer);
      this.firstFrameTimer = null;
    }
    const code = frameErrorCode(frame);
    if (first && code !== null) return this.refuse(frameErrorStatus(code), JSON_HEADERS, data.toString('utf8'));
    this.touch();
    this.sink.frame(data, frame);
    if (code !== null || isLastFrame(frame)) this.end('complete');
  }

  /** A frame or the handshake came: the silence allowed starts again. */
  private touch(): void {
    this.clearIdle();
    const idleMs = this.timeouts.streamingSeconds * 1000;
    if (idleMs > 0 && !this.over && !this.paused) this.idleTimer = setTimeout(() => this.end('failed', new SocketFailure('no frame within STREAMING_TIMEOUT')), idleMs);
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Stops the timers and lets the socket go: closed politely after the last frame, cut otherwise. */
  private finish(polite = false): void {
    this.over = true;
    this.clearIdle();
    if (this.firstFrameTimer) clearTimeout(this.firstFrameTimer);
    this.firstFrameTimer = null;
    const ws = this.ws;
    if (!ws) return;
    ws.removeAllListeners('message');
    ws.on('error', () => undefined);
    if (polite && ws.readyState === ws.OPEN) ws.close(1000);
    else ws.terminate();
  }

  private end(end: BodyEnd, err?: Error): void {
    if (this.over) return;
    this.finish(end === 'complete');
    this.sink.ended(end, err);
  }
}

/** A refusal read as an HTTP answer whose body is already known. */
function refusal(statusCode: number, headers: IncomingHttpHeaders, body: string): StreamedResponse {
  return {
    statusCode,
    headers,
    consume: async () => 'complete',
    resume: () => undefined,
    cancel: () => undefined,
    text: async () => body,
  };
}

/**
 * A streamed call: the head comes with the first frame; frames that arrive before a consumer is attached wait for
 * it; a consumer that asks for a pause pauses the socket.
 */
class StreamedSparkCall implements StreamingCall, StreamedResponse, FrameSink {
  readonly head: Promise<StreamedResponse>;
  readonly statusCode = 200;
  readonly headers = SSE_HEADERS;
  private readonly socket: SparkSocket;
  private resolveHead!: (r: StreamedResponse) => void;
  private rejectHead!: (err: Error) => void;
  private gotHead = false;
  /** Events not handed over yet: no consumer attached, or the consumer asked for a pause. */
  private queue: Buffer[] = [];
  private paused = false;
  private onChunk: ((chunk: Buffer) => boolean) | null = null;
  private resolveEnd: ((end: BodyEnd) => void) | null = null;
  private endedAs: BodyEnd | null = null;

  constructor(req: UpstreamRequest, timeouts: UpstreamTimeouts) {
    this.head = new Promise<StreamedResponse>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    this.socket = new SparkSocket(this, timeouts);
    this.socket.open(req);
  }

  refused(status: number, headers: IncomingHttpHeaders, body: string): void {
    this.gotHead = true;
    this.resolveHead(refusal(status, headers, body));
  }

  frame(raw: Buffer): void {
    if (!this.gotHead) {
      this.gotHead = true;
      this.resolveHead(this);
    }
    this.queue.push(Buffer.concat([SSE_DATA, raw, SSE_END]));
    this.drain();
  }

  ended(end: BodyEnd, err?: Error): void {
    if (!this.gotHead) {
      this.gotHead = true;
      this.rejectHead(err ?? new SocketFailure('no answer'));
      return;
    }
    this.endedAs = end;
    this.drain();
  }

  consume(onChunk: (chunk: Buffer) => boolean): Promise<BodyEnd> {
    return new Promise<BodyEnd>((resolve) => {
      this.resolveEnd = resolve;
      this.onChunk = onChunk;
      this.drain();
    });
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.drain();
    if (!this.paused) this.socket.resume();
  }

  cancel(): void {
    this.queue = [];
    this.paused = false;
    this.socket.cancel();
    // Ended before (frames were waiting for a paused consumer): the body ends now, as broken off.
    if (this.endedAs) {
      this.endedAs = 'failed';
      this.drain();
    }
  }

  text(): Promise<string> {
    return readBodyText(this);
  }

  /** Hands waiting events to the consumer until it asks for a pause; ends the body once all went out after the end. */
  private drain(): void {
    while (this.onChunk && !this.paused && this.queue.length > 0) {
      const event = this.queue.shift()!;
      let flowing: boolean;
      try {
        flowing = this.onChunk(event);
      } catch {
        this.cancel();
        return;
      }
      if (!flowing) {
        this.paused = true;
        this.socket.pause();
      }
    }
    if (this.endedAs && this.queue.length === 0) this.settle(this.endedAs);
  }

  private settle(end: BodyEnd): void {
    const resolve = this.resolveEnd;
    if (!resolve) return;
    this.resolveEnd = null;
    this.onChunk = null;
    resolve(end);
  }
}

/** A call read whole: resolves with the JSON array of the frames, or the refusal. */
class WholeSparkCall implements BufferedCall, FrameSink {
  readonly answer: Promise<WholeAnswer>;
  private readonly socket: SparkSocket;
  private resolveAnswer!: (a: WholeAnswer) => void;
  private rejectAnswer!: (err: Error) => void;
  private frames: Buffer[] = [];
  private refusedWith: WholeAnswer | null = null;

  constructor(req: UpstreamRequest, timeouts: UpstreamTimeouts) {
    this.answer = new Promise<WholeAnswer>((resolve, reject) => {
      this.resolveAnswer = resolve;
      this.rejectAnswer = reject;
    });
    this.socket = new SparkSocket(this, timeouts);
    this.socket.open(req);
  }

  refused(status: number, headers: IncomingHttpHeaders, body: string): void {
    this.resolveAnswer({ statusCode: status, headers, body: Buffer.from(body, 'utf8') });
  }

  frame(raw: Buffer, frame: SparkFrame): void {
    const code = frameErrorCode(frame);
    if (code !== null) this.refusedWith = { statusCode: frameErrorStatus(code), headers: JSON_HEADERS, body: raw };
    else this.frames.push(raw);
  }

  ended(end: BodyEnd, err?: Error): void {
    if (this.refusedWith) return this.resolveAnswer(this.refusedWith);
    if (end === 'complete') return this.resolveAnswer({ statusCode: 200, headers: JSON_HEADERS, body: this.joined() });
    const failure = err ?? new SocketFailure('the exchange broke off');
    const started = this.frames.length > 0;
    this.frames = [];
    // Frames came and then the socket broke: an answer cut off; none came: the upstream could not be reached.
    this.rejectAnswer(started ? new UpstreamCut(200, JSON_HEADERS, failure) : failure);
  }

  cancel(): void {
    this.socket.cancel();
  }

  /** The frames as one JSON array, their bytes as they came. */
  private joined(): Buffer {
    const parts: Buffer[] = [OPEN_LIST];
    this.frames.forEach((f, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(f);
    });
    parts.push(CLOSE_LIST);
    this.frames = [];
    return Buffer.concat(parts);
  }
}

/** A streamed Spark call. */
export function streamSpark(req: UpstreamRequest, timeouts: UpstreamTimeouts): StreamingCall {
  return new StreamedSparkCall(req, timeouts);
}

/** A Spark call read whole. */
export function fetchSpark(req: UpstreamRequest, timeouts: UpstreamTimeouts): BufferedCall {
  return new WholeSparkCall(req, timeouts);
}
