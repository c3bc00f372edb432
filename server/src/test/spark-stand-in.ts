import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/*
 * A local server that behaves like iFlytek Spark's chat WebSocket API. The handshake is checked as iFlytek documents
 * it: host, date and authorization in the query; the date within 300 seconds of now; the authorization the base64
 * of `api_key="…", algorithm="hmac-sha256", headers="host date request-line", signature="…"`, the signature
 * recomputed here (its own implementation of the published algorithm, not the gateway's) over the request line as
 * received, for the known APIKey. A refused handshake is an HTTP 401 or 403 with {"message": …}. Then the request
 * frame: its app_id must belong to the key (else error 10313), its domain must be the one of the path (else 10005),
 * and its messages must be text turns ending with the user's.
 *
 * Answers are the frames of relay/providers/spark/fixtures/chat/<case>.json, one WebSocket message each, the socket
 * closed after the last (or cut after the last of a file marked "cut"). The case is named in the last user message
 * ("… mock-<case>"), else `good`. A file may instead mark the socket "stall": left open and silent after its frames.
 */

export interface SparkHandshake {
  path: string;
  query: Record<string, string>;
}

export interface SparkCall {
  handshake: SparkHandshake;
  /** The request frame, parsed. */
  frame: Record<string, unknown>;
  case: string;
  /** Answer frames sent so far. */
  sent: number;
}

export interface SparkStandIn {
  url: string;
  appId: string;
  apiSecret: string;
  apiKey: string;
  /** The channel key the stand-in accepts. */
  key: string;
  /** Every handshake, accepted or not, newest last. */
  handshakes: SparkHandshake[];
  /** Every request frame answered, newest last. */
  calls: SparkCall[];
  /** Signatures accepted, newest last. */
  verified: string[];
  /** Milliseconds between two answer frames. */
  frameDelayMs: number;
  /** Sockets open now. */
  live(): number;
  close(): Promise<void>;
}

const FIXTURES = new URL('../relay/providers/spark/fixtures/chat/', import.meta.url);
const SKEW_SECONDS = 300;
const CASE_MARK = /mock-([a-z0-9-]+)/;

/** Paths of the chat endpoints and the domain each one serves. */
const DOMAIN_OF_PATH: Readonly<Record<string, string>> = {
  '/v1.1/chat': 'lite',
  '/v2.1/chat': 'generalv2',
  '/v3.1/chat': 'generalv3',
  '/v3.5/chat': 'generalv3.5',
  '/v4.0/chat': '4.0Ultra',
  '/chat/max-32k': 'max-32k',
  '/chat/pro-128k': 'pro-128k',
};

interface Fixture {
  frames: unknown[];
  /** The socket is dropped after the last frame instead of closed. */
  cut?: boolean;
  /** Nothing more after the last frame, the socket left open (an upstream gone silent). */
  stall?: boolean;
}

function fixture(name: string): Fixture | null {
  try {
    return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Fixture;
  } catch {
    return null;
  }
}

/** Answers a handshake with an HTTP refusal, as iFlytek's gateway does, and drops the connection. */
function refuseHandshake(socket: Socket, status: number, message: string): void {
  const body = JSON.stringify({ message });
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** The signature the published algorithm gives for this handshake. */
function expectedSignature(apiSecret: string, host: string, date: string, path: string): string {
  return createHmac('sha256', apiSecret).update(`host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`).digest('base64');
}

/** The refusal iFlytek would answer this handshake with, or null when it is signed right. */
function handshakeProblem(s: SparkStandIn, req: http.IncomingMessage, path: string, query: Record<string, string>): [number, string] | null {
  const { authorization, date, host } = query;
  if (!authorization || !date || !host) return [401, 'Unauthorized'];
  if (host !== req.headers.host) return [401, 'HMAC signature cannot be verified'];
  const at = Date.parse(date);
  if (!date.endsWith(' GMT') || Number.isNaN(at) || Math.abs(at - Date.now()) > SKEW_SECONDS * 1000) {
    return [403, 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication'];
  }
  const origin = Buffer.from(authorization, 'base64').toString('utf8');
  const m = /^api_key="([^"]*)", algorithm="([^"]*)", headers="([^"]*)", signature="([^"]*)"$/.exec(origin);
  if (!m) return [401, 'HMAC signature cannot be verified'];
  const [, apiKey, algorithm, headers, signature] = m;
  if (algorithm !== 'hmac-sha256' || headers !== 'host date request-line') return [401, 'HMAC signature cannot be verified'];
  if (apiKey !== s.apiKey) return [401, 'HMAC signature cannot be verified'];
  const expected = Buffer.from(expectedSignature(s.apiSecret, host, date, path));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return [401, 'HMAC signature does not match'];
  s.verified.push(signature);
  return null;
}

/** What is wrong with a request frame's body (answered as error 10005), or null. */
function frameProblem(frame: Record<string, unknown>, domain: string): string | null {
  const chat = (frame.parameter as { chat?: Record<string, unknown> } | undefined)?.chat;
  if (!chat || chat.domain !== domain) return `domain ${String(chat?.domain)} is not served at this path`;
  if (chat.max_tokens !== undefined && (!Number.isInteger(chat.max_tokens) || (chat.max_tokens as number) < 1)) return 'max_tokens must be a positive integer';
  if (chat.top_k !== undefined && (!Number.isInteger(chat.top_k) || (chat.top_k as number) < 1 || (chat.top_k as number) > 6)) return 'top_k must be 1 to 6';
  const text = (frame.payload as { message?: { text?: unknown } } | undefined)?.message?.text;
  if (!Array.isArray(text) || text.length === 0) return 'payload.message.text must not be empty';
  for (const m of text as Array<{ role?: unknown; content?: unknown }>) {
    if (!['system', 'user', 'assistant'].includes(String(m?.role)) || typeof m.content !== 'string') return 'each text turn needs a role and a string content';
  }
  if ((text.at(-1) as { role?: unknown }).role !== 'user') return 'the last turn must be the user’s';
  return null;
}

function caseOf(frame: Record<string, unknown>): string {
  const text = (frame.payload as { message: { text: Array<{ content: string }> } }).message.text;
  return CASE_MARK.exec(text.at(-1)!.content)?.[1] ?? 'good';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answer(s: SparkStandIn, ws: WebSocket, handshake: SparkHandshake, data: Buffer): Promise<void> {
  let frame: Record<string, unknown>;
  try {
    frame = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
  } catch {
    ws.close(1002);
    return;
  }
  let call: SparkCall | null = null;
  const send = async (f: Fixture, fill: (text: string) => string = (t) => t) => {
    for (const one of f.frames) {
      if (s.frameDelayMs > 0) await sleep(s.frameDelayMs);
      if (ws.readyState !== ws.OPEN) return;
      ws.send(fill(JSON.stringify(one)));
      if (call) call.sent++;
    }
    if (f.stall) return;
    if (f.cut) ws.terminate();
    else ws.close(1000);
  };
  const appId = (frame.header as { app_id?: unknown } | undefined)?.app_id;
  if (appId !== s.appId) return send(fixture('app-mismatch')!);
  const problem = frameProblem(frame, DOMAIN_OF_PATH[handshake.path]);
  if (problem) return send(fixture('bad-parameter')!, (t) => t.replace('{{message}}', problem));
  const name = caseOf(frame);
  call = { handshake, frame, case: name, sent: 0 };
  s.calls.push(call);
  const f = fixture(name);
  if (!f) return send(fixture('bad-parameter')!, (t) => t.replace('{{message}}', `no fixture ${name}`));
  return send(f);
}

export async function startSparkStandIn(opts: { appId?: string; apiSecret?: string; apiKey?: string } = {}): Promise<SparkStandIn> {
  const server = http.createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Upgrade Required' }));
  });
  const wss = new WebSocketServer({ noServer: true });
  const s: SparkStandIn = {
    url: '',
    appId: opts.appId ?? '5f3e2d1c',
    apiSecret: opts.apiSecret ?? 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi',
    apiKey: opts.apiKey ?? 'addd2272b6d8b7c8abdd79531420ca3b',
    key: '',
    handshakes: [],
    calls: [],
    verified: [],
    frameDelayMs: 1,
    live: () => wss.clients.size,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  s.key = `${s.appId}|${s.apiSecret}|${s.apiKey}`;
  server.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'ws://stand-in');
    const handshake: SparkHandshake = { path: url.pathname, query: Object.fromEntries(url.searchParams) };
    s.handshakes.push(handshake);
    if (!DOMAIN_OF_PATH[url.pathname]) return refuseHandshake(socket, 404, 'no Route matched with those values');
    const problem = handshakeProblem(s, req, url.pathname, handshake.query);
    if (problem) return refuseHandshake(socket, ...problem);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.once('message', (data: Buffer) => void answer(s, ws, handshake, data));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}
