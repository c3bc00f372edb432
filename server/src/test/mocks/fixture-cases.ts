import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import { dropConnection, listenLocal, parseJsonObject, sleep, stallConnection, type LocalServer } from './local-server.js';

/*
 * The shared half of the fixture-driven mock upstreams: loading cases from a folder, choosing one by model name,
 * recording each request with the exact bytes answered, and writing JSON / SSE answers (whole or cut).
 *
 * A case is `<case>.json` and/or `<case>.sse` in a route folder:
 *   <case>.json  {"status"?: 200, "headers"?: {...}, "body": <the JSON answer>, "cut"?: true}, or "raw": "<text>"
 *                instead of "body" for an answer that is not JSON (a malformed one)
 *   <case>.sse   the streamed answer as SSE events separated by blank lines (LF in the file; each mock frames them
 *                the way its service does). A stream request uses it when present, else the JSON answer.
 * "cut": the answer stops half-way (JSON) or after the last event of the file (SSE) and the socket is destroyed.
 * The string {{model}} in a fixture becomes the requested model name.
 */

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The exact bytes written to the socket after the headers (so far, for a stream under way). */
  body: Buffer;
  /** The socket was destroyed before the answer ended. */
  cut: boolean;
}

export interface MockRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** The raw request body, byte for byte. */
  body: Buffer;
  /** The body parsed as JSON, or null when it is not JSON. */
  json: Record<string, unknown> | null;
  /** The fixture case answered (null when refused before a case was chosen). */
  case: string | null;
  response: RecordedResponse;
}

export interface FixtureAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The answer's text as written, when it is not JSON. */
  raw?: string;
  cut: boolean;
}

export interface FixtureCase {
  name: string;
  answer?: FixtureAnswer;
  /** SSE event blocks, without their blank-line separators. */
  events?: string[];
}

export type CaseFolder = Map<string, FixtureCase>;

export const DEFAULT_CASE = 'default';
const CASE_MARK = 'mock-';

/** The cases of one route folder (empty when the folder does not exist). */
export function loadCaseFolder(dir: URL): CaseFolder {
  const cases: CaseFolder = new Map();
  if (!existsSync(dir)) return cases;
  const get = (name: string) => {
    let c = cases.get(name);
    if (!c) cases.set(name, (c = { name }));
    return c;
  };
  for (const file of readdirSync(dir).sort()) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    if (file.endsWith('.json')) {
      const raw = JSON.parse(text) as Partial<FixtureAnswer>;
      get(file.slice(0, -5)).answer = { status: raw.status ?? 200, headers: raw.headers ?? {}, body: raw.body, raw: raw.raw, cut: raw.cut === true };
    } else if (file.endsWith('.sse')) {
      get(file.slice(0, -4)).events = splitSse(text);
    }
  }
  return cases;
}

/** Event blocks of an SSE text; CRLF is read as LF. */
export function splitSse(text: string): string[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.replace(/^\n+|\n+$/g, ''))
    .filter((block) => block.length > 0);
}

/** Whether a case's answers are valid JSON event by event (the malformed cases are not, on purpose). */
export function isWellFormed(c: FixtureCase): boolean {
  if (c.answer?.raw !== undefined) return false;
  const parses = (data: string) => {
    try {
      JSON.parse(data);
      return true;
    } catch {
      return false;
    }
  };
  const dataOf = (event: string) =>
    event
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
  return (c.events ?? []).every((e) => parses(dataOf(e)));
}

/** The case a model name asks for: the part after the last "mock-", or the default case without one. */
export function caseOfModel(model: string): string {
  const at = model.lastIndexOf(CASE_MARK);
  return at < 0 ? DEFAULT_CASE : model.slice(at + CASE_MARK.length);
}

/** Replaces {{model}} in a fixture text, escaped for a JSON string. */
export function fillModel(text: string, model: string): string {
  return text.split('{{model}}').join(JSON.stringify(model).slice(1, -1));
}

/** Finds a case: first in the route's own folder, then in the shared folders (errors), in order. */
export function findCase(name: string, folders: CaseFolder[]): FixtureCase | undefined {
  for (const f of folders) {
    const c = f.get(name);
    if (c) return c;
  }
  return undefined;
}

async function cutConnection(res: http.ServerResponse, rec: MockRequest): Promise<void> {
  rec.response.cut = true;
  await dropConnection(res);
}

function begin(res: http.ServerResponse, rec: MockRequest, status: number, headers: Record<string, string>): void {
  rec.response.status = status;
  rec.response.headers = headers;
  res.writeHead(status, headers);
}

function write(res: http.ServerResponse, rec: MockRequest, bytes: Buffer): void {
  rec.response.body = Buffer.concat([rec.response.body, bytes]);
  res.write(bytes);
}

/**
 * A whole answer; with `cut`, only its first half is sent before the connection drops; with `stall`, the first half
 * and then nothing, the connection left open (an upstream gone silent).
 */
export async function sendBody(
  res: http.ServerResponse,
  rec: MockRequest,
  status: number,
  headers: Record<string, string>,
  text: string,
  cut = false,
  stall = false,
): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  begin(res, rec, status, { ...headers, 'content-length': String(bytes.length) });
  if (cut || stall) {
    write(res, rec, bytes.subarray(0, Math.floor(bytes.length / 2)));
    return stall ? stallConnection(res) : cutConnection(res, rec);
  }
  rec.response.body = bytes;
  res.end(bytes);
}

/**
 * A streamed answer, one write per framed event (text or binary); with `cut`, the connection drops after the last one;
 * with `stallAfter`, nothing more is written after that many events and the connection stays open.
 */
export async function sendStream(
  res: http.ServerResponse,
  rec: MockRequest,
  headers: Record<string, string>,
  framed: Array<string | Buffer>,
  opts: { cut: boolean; delayMs: number; status?: number; stallAfter?: number },
): Promise<void> {
  begin(res, rec, opts.status ?? 200, headers);
  for (const [i, event] of framed.entries()) {
    if (opts.stallAfter !== undefined && i >= opts.stallAfter) return stallConnection(res);
    if (opts.delayMs > 0) await sleep(opts.delayMs);
    if (res.destroyed) return;
    write(res, rec, typeof event === 'string' ? Buffer.from(event, 'utf8') : event);
  }
  if (opts.cut) return cutConnection(res, rec);
  res.end();
}

export interface FixtureServer extends LocalServer {
  requests: MockRequest[];
}

export type FixtureHandler = (rec: MockRequest, res: http.ServerResponse) => Promise<void>;

/** Listens on 127.0.0.1 (port 0), records every request and hands it to `handle`. */
export async function startFixtureServer(handle: FixtureHandler): Promise<FixtureServer> {
  const requests: MockRequest[] = [];
  const server = await listenLocal((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://mock');
    const rec: MockRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      json: parseJsonObject(body),
      case: null,
      response: { status: 0, headers: {}, body: Buffer.alloc(0), cut: false },
    };
    requests.push(rec);
    handle(rec, res).catch(() => res.destroy());
  });
  return { ...server, requests };
}
