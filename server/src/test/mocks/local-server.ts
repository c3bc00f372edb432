import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The HTTP half every mock upstream shares: a server on 127.0.0.1 (port 0) that reads each request whole, and the
 * plain ways of answering — JSON, a stream written in pieces, an answer cut off by dropping the connection.
 */

export interface LocalServer {
  url: string;
  /** Drops open connections (keep-alive ones included) and stops listening. */
  close(): Promise<void>;
}

/** Gets each request once its body has arrived. */
export type LocalHandler = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void;

export async function listenLocal(handle: LocalHandler): Promise<LocalServer> {
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => handle(req, Buffer.concat(parts), res));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a mock's server gives it. */
type ServedFields = LocalServer & { requests: unknown[] };

/**
 * A mock object — the fields its handler reads (key, options, scripted behaviour) — joined with the server `start`
 * runs it on (url, requests, close).
 */
export async function serveMock<M extends ServedFields>(
  fields: Omit<M, keyof ServedFields>,
  start: (mock: M) => Promise<Pick<M, keyof ServedFields>>,
): Promise<M> {
  const mock = fields as M;
  return Object.assign(mock, await start(mock));
}

/** A request as the simpler mocks record it. */
export interface PlainRequest {
  method: string;
  /** As recorded: the path with its query string; the handler gets the path alone. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body as a JSON object when the request says it is JSON, else null. */
  json: Record<string, unknown> | null;
}

/** The fixture case a request asks for: its x-mock-case header, else the model name after "mock-", else good. */
export function caseOfRequest(req: PlainRequest, model: string): string {
  const header = req.headers['x-mock-case'];
  return typeof header === 'string' ? header : (/^mock-(.+)$/.exec(model)?.[1] ?? 'good');
}

export interface RecordingServer extends LocalServer {
  requests: PlainRequest[];
}

/** A local server that records every request and hands it on; a handler that fails drops the connection. */
export async function startRecordingServer(
  handle: (req: PlainRequest, res: http.ServerResponse, query: URLSearchParams) => Promise<void>,
): Promise<RecordingServer> {
  const requests: PlainRequest[] = [];
  const server = await listenLocal((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const declaredJson = String(req.headers['content-type'] ?? '').includes('application/json');
    const record: PlainRequest = { method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body, json: declaredJson ? parseJsonObject(body) : null };
    requests.push(record);
    handle({ ...record, path: url.pathname }, res, url.searchParams).catch(() => res.destroy());
  });
  return { ...server, requests };
}

/** The body as a JSON object; null when it is not JSON or not an object. */
export function parseJsonObject(body: Buffer): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lets written bytes reach the client, then drops the connection without ending the response. */
export async function dropConnection(res: http.ServerResponse): Promise<void> {
  await sleep(30);
  res.socket?.destroy();
}

/** Resolves after `ms`, or as soon as the client has gone (a mock that waits must not outlive its caller). */
export function waitUnlessGone(res: http.ServerResponse, ms: number): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

/** An upstream gone silent: the connection stays open, nothing more is written, until the client gives up. */
export async function stallConnection(res: http.ServerResponse, limitMs = 60_000): Promise<void> {
  await waitUnlessGone(res, limitMs);
  res.socket?.destroy();
}

/** A JSON answer (`headers` may replace the content type). */
export function sendJson(res: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** The first half of a JSON answer, then the connection drops. */
export async function sendHalfJson(res: http.ServerResponse, whole: Buffer): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': whole.length });
  res.write(whole.subarray(0, whole.length >> 1));
  await dropConnection(res);
}

/**
 * A 200 answer written piece by piece with `pause()` after each, so the client sees it arrive in parts; with `cut` the
 * connection drops after the last piece instead of the answer ending.
 */
export async function sendPieces(
  res: http.ServerResponse,
  headers: Record<string, string>,
  pieces: Array<string | Buffer>,
  opts: { cut: boolean; pause: () => Promise<unknown> },
): Promise<void> {
  res.writeHead(200, headers);
  for (const piece of pieces) {
    res.write(piece);
    await opts.pause();
  }
  if (opts.cut) return dropConnection(res);
  res.end();
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };

/** An SSE fixture text written one event at a time (a cut fixture's unfinished last event included). */
export function sendSse(
  res: http.ServerResponse,
  text: string,
  opts: { cut: boolean; pause: () => Promise<unknown>; headers?: Record<string, string> },
): Promise<void> {
  const events = text.split(/(?<=\n\n)/).filter((e) => e.length > 0);
  return sendPieces(res, { ...SSE_HEADERS, ...opts.headers }, events, opts);
}

/** Reads `<route>/<file>` under a fixture folder: its bytes, or null when there is no such file. */
export const fixtureFiles =
  (base: URL) =>
  (route: string, file: string): Buffer | null => {
    const url = new URL(`${route}/${file}`, base);
    return existsSync(url) ? readFileSync(url) : null;
  };
