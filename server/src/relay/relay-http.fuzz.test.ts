import net from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { EDGE_MODELS as M, startEdgeFixture, type EdgeFixture } from '../test/edge-fixture.js';
import {
  authHeaders,
  bodiesOf,
  errorFormatOf,
  formatOfUnknownPath,
  FUZZ_RUNS,
  FUZZ_TIMEOUT,
  heapAfterGc,
  JSON_ENDPOINTS,
  sendAndCheck,
  VIAS,
  type Format,
} from '../test/relay-fuzz.js';

/*
 * The relay's HTTP edge, fuzzed through the relay lane and app.inject: any method on any relay path (endpoints,
 * models lists, count endpoints, billing, unknown and malformed paths) with random query strings and headers;
 * endpoint calls with random content types, content encodings (gzip of garbage, truncated gzip, bombs) and sizes
 * near and over the body limit; multipart uploads; raw HTTP the parser may refuse. Same properties as the body
 * fuzzing: an answer always, no 5xx of the gateway's own, errors in the caller's format, a flat heap.
 */

const [sqlite] = testDatabases(['sqlite']);
const LIMIT = 1024 * 1024;

/** Relay paths that are not POST endpoints: model lists, billing, calls not relayed. */
const OTHER_PATHS = [
  '/v1/models',
  `/v1/models/${M.openai}`,
  '/v1/models/no-such-model',
  '/v1beta/models',
  `/v1beta/models/${M.gemini}`,
  '/v1beta1/models',
  '/v1/dashboard/billing/subscription',
  '/v1/dashboard/billing/usage',
  '/dashboard/billing/subscription',
  '/dashboard/billing/usage',
  '/v1/files',
  '/v1/images/edits',
  '/v1/fine-tunes',
  '/pg/chat/completions',
];

/** Junk a path may carry: extra segments, broken or odd percent-encoding, dots, very long names. */
const pathJunk = fc.oneof(
  fc.constant(''),
  fc.constantFrom('/', '/x', '%zz', '%E0%A4%A', '%00', '%2F', '/..', '/./', '//', ':', '::generateContent', '?'),
  fc.string({ maxLength: 12 }).map((s) => `/${encodeURIComponent(s)}`),
  fc.constant(`/${'m'.repeat(300)}`),
);

const endpointPath = fc.constantFrom(...JSON_ENDPOINTS).chain((e) => e.paths);
/** A path with junk in it, as a client's URL parser sends it (dot segments resolved). */
const anyPath = fc.tuple(fc.oneof(endpointPath, fc.constantFrom(...OTHER_PATHS)), pathJunk).map(([p, junk]) => {
  const q = p.indexOf('?');
  const url = new URL(q < 0 ? p + junk : p.slice(0, q) + junk + p.slice(q), 'http://relay');
  return url.pathname + url.search;
});

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?alt=sse', '?alt=json', '?alt=', '?key=', '?limit=abc', '?limit=99999999999999999999', '?after_id=x&before_id=y', '?%zz=1', '?a=%E0%A4%A'),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 3 }).map((d) => `?${new URLSearchParams(d).toString()}`),
);
const extraHeaders = fc.dictionary(
  fc.constantFrom('accept', 'accept-encoding', 'anthropic-version', 'anthropic-beta', 'x-goog-api-key', 'origin', 'x-forwarded-for', 'user-agent', 'x-request-id', 'x-stainless-retry-count', 'content-type'),
  printable,
  { maxKeys: 4 },
);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

const OPENAI_ENDPOINTS = new Set([
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  '/v1/moderations',
  '/v1/images/generations',
  '/v1/audio/speech',
  '/v1/rerank',
  '/v1/responses',
  '/v1/audio/transcriptions',
  '/v1/audio/translations',
  '/pg/chat/completions',
]);

const wellEncoded = (path: string) => {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
};

/** The format errors of this request must be in: a POST endpoint's own, else the one the path and headers tell. */
function expectedFormat(method: string, path: string, headers: Record<string, string>): Format {
  const p = path.split('?')[0];
  if (method === 'POST' && wellEncoded(p)) {
    if (OPENAI_ENDPOINTS.has(p) || /^\/v1\/engines\/[^/]+\/embeddings$/.test(p)) return 'openai';
    if (p === '/v1/messages' || p === '/v1/messages/count_tokens') return 'claude';
    if (/^\/(v1beta1?|v1)\/models\/[^/]*$/.test(p)) return 'gemini';
  }
  return formatOfUnknownPath(path, headers);
}

const endpointNamed = (name: string) => JSON_ENDPOINTS.find((e) => e.name === name)!;

describe('the relay HTTP edge, fuzzed', () => {
  let f: EdgeFixture;

  beforeAll(async () => {
    f = await startEdgeFixture(sqlite, { MAX_REQUEST_BODY_MB: '1' });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('answers any method, path, query and headers on relay paths in the caller format', async () => {
    const before = heapAfterGc();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          via: fc.constantFrom(...VIAS),
          method: fc.constantFrom(...METHODS),
          path: anyPath,
          query,
          auth: fc.tuple(fc.constantFrom<Format>('openai', 'claude', 'gemini'), fc.nat(1), fc.boolean()),
          extra: extraHeaders,
          body: fc.option(fc.oneof(...['chat completions', 'claude messages', 'gemini generateContent'].map((n) => bodiesOf(endpointNamed(n)))), { nil: undefined }),
        }),
        async ({ via, method, path, query, auth, extra, body }) => {
          const [format, style, keyed] = auth;
          const headers = { ...(keyed ? authHeaders(format, f.key, style) : {}), ...extra };
          const full = path.includes('?') ? `${path}&${query.slice(1)}` : path + query;
          const withBody = method !== 'GET' && method !== 'HEAD' ? body : undefined;
          await sendAndCheck(f, { via, format: expectedFormat(method, full, headers), request: { method, path: full, headers, body: withBody } });
        },
      ),
      { numRuns: FUZZ_RUNS * 3, endOnFailure: true },
    );
    f.forgetUpstreamRequests();
    const grown = heapAfterGc() - before;
    expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(24e6);
  }, FUZZ_TIMEOUT);

  /** A body as sent on the wire: compressed (or broken compression), padded near or past the body limit. */
  const wire = fc.record({
    encoding: fc.constantFrom('', 'gzip', 'deflate', 'br', 'gzip-garbage', 'gzip-truncated', 'gzip-bomb', 'compress', 'gzip, br', 'identity'),
    size: fc.constantFrom('as is', 'near the limit', 'over the limit'),
    contentType: fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''), printable),
  });

  const INFLATED = new Set(['gzip', 'deflate', 'br', 'gzip-garbage', 'gzip-bomb']);

  /** The body as sent, its encoding header, and whether it is over the limit as sent or once inflated. */
  function onTheWire(json: string, w: { encoding: string; size: string }): { body: Buffer; encoding: string; tooLarge: boolean } {
    const sent = wireBytes(json, w);
    const inflated = w.encoding === 'gzip-bomb' ? LIMIT * 4 : sent.text.length;
    return { body: sent.body, encoding: sent.encoding, tooLarge: sent.body.length > LIMIT || (INFLATED.has(w.encoding) && inflated > LIMIT) };
  }

  function wireBytes(json: string, w: { encoding: string; size: string }): { body: Buffer; encoding: string; text: string } {
    let text = json;
    if (w.size !== 'as is' && json.startsWith('{')) {
      const room = w.size === 'near the limit' ? LIMIT - json.length - 200 : LIMIT + 10;
      text = `{"padding":"${'p'.repeat(Math.max(0, room))}",${json.slice(1)}`;
    }
    const raw = Buffer.from(text);
    switch (w.encoding) {
      case 'gzip':
        return { body: gzipSync(raw), encoding: 'gzip', text };
      case 'deflate':
        return { body: deflateSync(raw), encoding: 'deflate', text };
      case 'br':
        return { body: brotliCompressSync(raw), encoding: 'br', text };
      case 'gzip-garbage':
        return { body: gzipSync(Buffer.from(text.split('').reverse().join(''))), encoding: 'gzip', text };
      case 'gzip-truncated': {
        const gz = gzipSync(raw);
        return { body: gz.subarray(0, Math.max(1, gz.length >> 1)), encoding: 'gzip', text };
      }
      case 'gzip-bomb':
        return { body: gzipSync(Buffer.alloc(LIMIT * 4, 0x20)), encoding: 'gzip', text };
      default:
        return { body: raw, encoding: w.encoding, text };
    }
  }

  it('answers endpoint calls with any content type, encoding and size in the caller format', async () => {
    const before = heapAfterGc();
    await fc.assert(
      fc.asyncProperty(
        fc
          .record({ name: fc.constantFrom(...JSON_ENDPOINTS.map((e) => e.name)), via: fc.constantFrom(...VIAS), wire })
          .chain(({ name, via, wire: w }) => fc.record({ name: fc.constant(name), via: fc.constant(via), wire: fc.constant(w), path: endpointNamed(name).paths, json: bodiesOf(endpointNamed(name)) })),
        async ({ name, via, wire: w, path, json }) => {
          const endpoint = endpointNamed(name);
          const { body, encoding, tooLarge } = onTheWire(json, w);
          const headers: Record<string, string> = { ...authHeaders(endpoint.format, f.key) };
          if (w.contentType) headers['content-type'] = w.contentType;
          if (encoding) headers['content-encoding'] = encoding;
          const answer = await sendAndCheck(f, { via, format: endpoint.format, request: { path, headers, body } });
          // Fastify's routes refuse a malformed Content-Type (415) before they read the body.
          if (tooLarge) expect([413, 415]).toContain(answer.status);
        },
      ),
      { numRuns: FUZZ_RUNS, endOnFailure: true },
    );
    f.forgetUpstreamRequests();
    const grown = heapAfterGc() - before;
    expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(24e6);
  }, FUZZ_TIMEOUT);

  it('answers multipart uploads to speech-to-text in OpenAI format', async () => {
    const audio = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10\x00data\x00\x00\x00\x00', 'latin1');
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          via: fc.constantFrom(...VIAS),
          path: fc.constantFrom('/v1/audio/transcriptions', '/v1/audio/translations'),
          fields: fc.dictionary(fc.constantFrom('model', 'language', 'prompt', 'response_format', 'temperature'), printable, { maxKeys: 4 }),
          file: fc.oneof(fc.constant(audio), fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), fc.constant(null)),
          mangle: fc.constantFrom('none', 'no boundary', 'wrong boundary', 'truncated', 'json'),
        }),
        async ({ via, path, fields, file, mangle }) => {
          const form = new FormData();
          form.set('model', M.openai);
          for (const [k, v] of Object.entries(fields)) form.set(k, v);
          if (file) form.set('file', new Blob([file]), 'audio.wav');
          const encoded = new Response(form);
          let body = Buffer.from(await encoded.arrayBuffer());
          let contentType = encoded.headers.get('content-type') ?? '';
          if (mangle === 'no boundary') contentType = 'multipart/form-data';
          if (mangle === 'wrong boundary') contentType = 'multipart/form-data; boundary=nope';
          if (mangle === 'truncated') body = body.subarray(0, body.length >> 1);
          if (mangle === 'json') {
            body = Buffer.from(JSON.stringify({ model: M.openai, ...fields }));
            contentType = 'application/json';
          }
          await sendAndCheck(f, { via, format: 'openai', request: { path, headers: { ...authHeaders('openai', f.key), 'content-type': contentType }, body } });
        },
      ),
      { numRuns: FUZZ_RUNS, endOnFailure: true },
    );
  }, FUZZ_TIMEOUT);

  /** Sends raw bytes on a socket and returns what came back (the server may close without answering). */
  function raw(bytes: Buffer): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(Number(new URL(f.relay.baseUrl).port), '127.0.0.1', () => socket.end(bytes));
      let out = '';
      const timer = setTimeout(() => socket.destroy(), 2_000);
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(out);
      });
      socket.on('error', () => undefined);
    });
  }

  it('answers HTTP the parser refuses on relay paths in the caller format, and keeps serving', async () => {
    const headerJunk = fc.oneof(
      fc.constantFrom('Content-Length: abc', 'Content-Length: -1', 'Content-Length: 1e3', 'Content-Length: 99999999999999999999', 'Content-Length: 2\r\nContent-Length: 3'),
      fc.constantFrom('Transfer-Encoding: chunked\r\nContent-Length: 2', 'Transfer-Encoding: gzip', 'X-Bad\x01Header: 1', 'Bad Header: 1', ' leading-space: 1'),
      fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ path: fc.oneof(endpointPath, fc.constantFrom(...OTHER_PATHS)), junk: headerJunk, body: fc.string({ maxLength: 20 }) }), async ({ path, junk, body }) => {
        const answer = await raw(Buffer.from(`POST ${path} HTTP/1.1\r\nHost: relay\r\n${junk}\r\n\r\n${body}`, 'latin1'));
        // The first answer only (junk after a body-less request is read as the next request).
        const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
        const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        const text = answer.slice(head.length + 4, head.length + 4 + length);
        if (status >= 400 && text.startsWith('{')) expect(errorFormatOf(text), `${path} ${JSON.stringify(junk)} -> ${answer.slice(0, 300)}`).not.toBeNull();
        expect(status === 0 || status < 500 || status === 501, answer.slice(0, 300)).toBe(true);
      }),
      { numRuns: FUZZ_RUNS, endOnFailure: true },
    );
    const ok = await f.send('lane', { method: 'GET', path: '/v1/models', headers: authHeaders('openai', f.key) });
    expect(ok.status).toBe(200);
  }, FUZZ_TIMEOUT);
});
