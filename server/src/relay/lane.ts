import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { AppContext } from '../context.js';
import { contentEncoding, decodeBody } from './body.js';
import { allowBrowsers } from './cors.js';
import { RelayError, shuttingDown } from './errors.js';
import type { RelayExchange } from './exchange.js';
import { requestIdOf } from '../request-id.js';
import { guarded, writeError, type RelayEndpoint } from './routes/endpoint.js';

/*
 * The relay lane: relay calls answered straight from the HTTP server, before Fastify. A relay call needs none of
 * what Fastify adds per request (routing tree, request and reply objects, hooks, content-type parsing, reply
 * lifecycle), and that bookkeeping cost about 9 µs of CPU per call next to a ~60 µs relay (docs/decisions.md,
 * "The relay lane"). The lane serves exactly the endpoints that are also Fastify routes (RELAY_ENDPOINTS), through the
 * same code (routes/endpoint.ts), so `app.inject` and a listening server answer alike; anything else — another
 * method, another path, the console — goes on to Fastify untouched.
 */

export interface LaneOptions {
  /** Largest accepted request body in bytes (MAX_REQUEST_BODY_MB). */
  bodyLimit: number;
  /** Which peers may tell the client's address in X-Forwarded-For (as Fastify's trustProxy). */
  trust: (address: string, hop: number) => boolean;
}

type Match = { endpoint: RelayEndpoint; param: string };

/** One call taken by the lane, with its body read whole. */
class LaneExchange implements RelayExchange {
  readonly id: string;
  private address: string | undefined;
  private parsedQuery: Record<string, unknown> | undefined;
  /**
   * The peer's address, taken while the connection is open: the consume log reads the client's address after the
   * answer, when a client that left has taken its socket's address with it.
   */
  private readonly peerAddress: string;

  constructor(
    private readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** As received; replaced by the inflated bytes when it came compressed. */
    public body: Buffer | undefined,
    private readonly trust: LaneOptions['trust'],
  ) {
    this.peerAddress = req.socket.remoteAddress ?? '';
    this.id = requestIdOf(req);
  }

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  get ip(): string {
    if (this.address === undefined) {
      const peer = { headers: this.req.headers, socket: { remoteAddress: this.peerAddress } };
      this.address = proxyAddr(peer as unknown as IncomingMessage, this.trust) ?? '';
    }
    return this.address;
  }

  get query(): Record<string, unknown> {
    if (!this.parsedQuery) {
      const url = this.req.url ?? '';
      const at = url.indexOf('?');
      this.parsedQuery = at < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(at + 1)));
    }
    return this.parsedQuery;
  }
}

export class RelayLane {
  /** Set when the server starts closing: calls that still arrive are turned away as Fastify would (503). */
  private closing = false;
  /** Calls taken and not yet answered (body being read, or being relayed). */
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private readonly exact = new Map<string, RelayEndpoint>();
  /** Paths that end in a parameter: the fixed part before it. */
  private readonly prefixed: Array<[prefix: string, endpoint: RelayEndpoint]> = [];

  constructor(
    private readonly ctx: AppContext,
    endpoints: readonly RelayEndpoint[],
    private readonly options: LaneOptions,
  ) {
    for (const endpoint of endpoints) {
      const param = endpoint.path.lastIndexOf('/:');
      if (param < 0) this.exact.set(endpoint.path, endpoint);
      else this.prefixed.push([endpoint.path.slice(0, param + 1), endpoint]);
    }
  }

  /**
   * Stops taking calls, waits for those in flight to be answered, then closes the connections they leave idle
   * (keep-alive connections that were busy when the server began to close would otherwise hold it open).
   */
  async close(server: { closeIdleConnections(): void }): Promise<void> {
    this.closing = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    server.closeIdleConnections();
  }

  private finished(): void {
    if (--this.inFlight === 0 && this.drained) {
      this.drained();
      this.drained = null;
    }
  }

  /** Serves the request when it is a relay call; false leaves it to Fastify. */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') return false;
    const match = this.match(req.url ?? '');
    if (!match) return false;
    if (req.headers.origin !== undefined) allowBrowsers(res);
    if (this.closing) {
      res.setHeader('connection', 'close');
      writeError(res, shuttingDown(), match.endpoint.format);
      return true;
    }
    this.inFlight++;
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      this.finished();
    };
    this.readBody(req, res, match, done);
    return true;
  }

  private match(url: string): Match | null {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const endpoint = this.exact.get(path);
    if (endpoint) return { endpoint, param: '' };
    for (const [prefix, candidate] of this.prefixed) {
      if (path.length === prefix.length || !path.startsWith(prefix) || path.indexOf('/', prefix.length) >= 0) continue;
      try {
        return { endpoint: candidate, param: decodeURIComponent(path.slice(prefix.length)) };
      } catch {
        return null; // a malformed escape: Fastify answers it
      }
    }
    return null;
  }

  private readBody(req: IncomingMessage, res: ServerResponse, { endpoint, param }: Match, done: () => void): void {
    const limit = this.options.bodyLimit;
    const tooLarge = () => {
      res.setHeader('connection', 'close');
      writeError(res, new RelayError(413, '请求体过大', 'request_too_large', 'invalid_request_error'), endpoint.format);
      done();
    };
    const declared = Number(req.headers['content-length']);
    if (declared > limit) {
      tooLarge();
      req.resume();
      return;
    }
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        tooLarge();
        req.resume();
        return;
      }
      parts.push(chunk);
    };
    const onEnd = () => {
      const body = size === 0 ? undefined : parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
      const ex = new LaneExchange(req, res, body, this.options.trust);
      const encoding = contentEncoding(req.headers['content-encoding']);
      void guarded(
        this.ctx,
        ex,
        endpoint.format,
        async () => {
          if (encoding) ex.body = await decodeBody(body, encoding, limit);
          await endpoint.handle(this.ctx, ex, param);
        },
        endpoint.path,
      ).finally(() => whenAnswered(res, done));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    // A client that goes away mid-body: nothing to answer.
    req.on('error', () => {
      res.destroy();
      done();
    });
  }
}

/** Trust for X-Forwarded-For, from the TRUSTED_PROXIES list (addresses, CIDRs, or loopback / linklocal / uniquelocal). */
export function compileTrust(list: string[]): LaneOptions['trust'] {
  return proxyAddr.compile(list);
}

/**
 * Runs `then` once the answer is over. A handler may return before its answer's last write, which waits for the
 * settlement journal (respond.ts: AfterJournal); a close that counted the call done then would find its connection
 * busy, leave it, and wait on it until its keep-alive ran out.
 */
function whenAnswered(res: ServerResponse, then: () => void): void {
  if (res.writableFinished || res.destroyed) {
    then();
    return;
  }
  res.once('finish', then);
  res.once('close', then);
}
