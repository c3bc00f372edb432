import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';

/*
 * The relay lane serves relay calls on a listening server before Fastify; `app.inject` goes through the Fastify
 * routes. Both must answer alike, and the lane must leave everything else to Fastify.
 */

const [sqlite] = testDatabases(['sqlite']);
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

describe('relay lane', () => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  let key: string;

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(sqlite, { MAX_REQUEST_BODY_MB: '1' });
    await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini' });
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  const overHttp = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${f.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body });
  const injected = (path: string, body: string, headers: Record<string, string> = {}) =>
    f.t.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, payload: body });

  it('answers a call over HTTP as the Fastify route answers it through inject', async () => {
    const lane = await overHttp('/v1/chat/completions', JSON.stringify(chat));
    const routed = await injected('/v1/chat/completions', JSON.stringify(chat));
    expect(lane.status).toBe(200);
    expect(routed.statusCode).toBe(200);
    const a = (await lane.json()) as { choices: unknown };
    expect(a.choices).toEqual((routed.json() as { choices: unknown }).choices);
  });

  it('refuses in the caller’s format, the same way on both paths', async () => {
    for (const [path, body, shape] of [
      ['/v1/chat/completions', '{"model":', 'error'],
      ['/v1/messages', '{}', 'type'],
      ['/v1beta/models/gemini-x:generateContent', 'not json', 'error'],
    ] as const) {
      const lane = await overHttp(path, body);
      const routed = await injected(path, body);
      expect(lane.status).toBe(routed.statusCode);
      const laneBody = (await lane.json()) as Record<string, unknown>;
      expect(laneBody).toEqual(routed.json());
      expect(laneBody[shape]).toBeDefined();
    }
  });

  it('takes Gemini calls with the model in an escaped path segment', async () => {
    const res = await overHttp('/v1beta/models/gpt-4o-mini%3AcountTokens', JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
  });

  it('refuses a body over the limit with 413 before reading it all, declared or not', async () => {
    const big = JSON.stringify({ ...chat, pad: 'x'.repeat(1_100_000) });
    const declared = await overHttp('/v1/chat/completions', big);
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { message: string } }).error.message).toBe('请求体过大');
    const chunked = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('leaves other methods and paths to Fastify', async () => {
    expect((await fetch(`${f.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const unknown = await overHttp('/v1/chat/completions/extra', JSON.stringify(chat));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch('Invalid URL');
    expect((await fetch(`${f.baseUrl}/api/status`)).status).toBe(200);
  });

  it('lets web pages on any origin call the relay: preflight, and the header on answers and errors', async () => {
    const preflight = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://chat.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const fromPage = { origin: 'https://chat.example' };
    expect((await overHttp('/v1/chat/completions', JSON.stringify(chat), fromPage)).headers.get('access-control-allow-origin')).toBe('*');
    expect((await injected('/v1/chat/completions', JSON.stringify(chat), fromPage)).headers['access-control-allow-origin']).toBe('*');
    expect((await overHttp('/v1/chat/completions', '{', fromPage)).headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${f.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}`, ...fromPage } })).headers.get('access-control-allow-origin')).toBe('*');
    // Clients that are not browsers send no Origin and get no header; the console's own API gets none either.
    expect((await overHttp('/v1/chat/completions', JSON.stringify(chat))).headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${f.baseUrl}/api/status`, { headers: fromPage })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('takes gzip, deflate and br bodies on both paths, and refuses what cannot be inflated', async () => {
    const body = Buffer.from(JSON.stringify(chat));
    for (const [encoding, packed] of [
      ['gzip', zlib.gzipSync(body)],
      ['deflate', zlib.deflateSync(body)],
      ['br', zlib.brotliCompressSync(body)],
    ] as const) {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': encoding };
      const lane = await fetch(`${f.baseUrl}/v1/chat/completions`, { method: 'POST', headers, body: packed });
      expect(lane.status, encoding).toBe(200);
      expect((await f.t.app.inject({ method: 'POST', url: '/v1/chat/completions', headers, payload: packed })).statusCode, encoding).toBe(200);
    }
    const send = (encoding: string, payload: Buffer) =>
      fetch(`${f.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': encoding }, body: payload });
    // 1 MB allowed: 5 MB of zeros squeeze into a few kB but must not be inflated past the limit.
    const bomb = await send('gzip', zlib.gzipSync(Buffer.alloc(5_000_000)));
    expect(bomb.status).toBe(413);
    expect((await send('gzip', Buffer.from('not gzip at all'))).status).toBe(400);
    const unknown = await send('compress', body);
    expect(unknown.status).toBe(415);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('Content-Encoding');
  });

  it('believes X-Forwarded-For only from trusted proxies (loopback by default)', async () => {
    const fenced = await f.token({ allow_ips: '10.1.2.3' });
    const call = (xff?: string) =>
      overHttp('/v1/chat/completions', JSON.stringify(chat), { authorization: `Bearer ${fenced.key}`, ...(xff ? { 'x-forwarded-for': xff } : {}) });
    expect((await call()).status).toBe(403);
    expect((await call('10.1.2.3')).status).toBe(200);
  });
});

describe('relay lane with no trusted proxy', () => {
  it('ignores X-Forwarded-For, on the lane and on the Fastify routes', async () => {
    const mock = await startMockOpenAI();
    const f = await startRelay(sqlite, { TRUSTED_PROXIES: 'none' });
    try {
      await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini' });
      const fenced = await f.token({ allow_ips: '10.1.2.3' });
      const headers = { authorization: `Bearer ${fenced.key}`, 'content-type': 'application/json', 'x-forwarded-for': '10.1.2.3' };
      expect((await fetch(`${f.baseUrl}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(chat) })).status).toBe(403);
      expect((await f.t.app.inject({ method: 'POST', url: '/v1/chat/completions', headers, payload: JSON.stringify(chat) })).statusCode).toBe(403);
    } finally {
      await f.close();
      await mock.close();
    }
  });
});

describe('relay lane with a client that leaves mid-body', () => {
  it('forgets the call, so shutdown does not wait for it', async () => {
    const f = await startRelay(sqlite);
    try {
      const { port } = new URL(f.baseUrl);
      // The lane takes the call before this listener sees it (its handler is the server's first).
      const taken = once(f.t.app.server, 'request') as Promise<[IncomingMessage]>;
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":');
      const [req] = await taken;
      // Not events.once: the request errs (aborted) before it closes, and the lane's own listener takes that.
      const gone = new Promise((resolve) => req.once('close', resolve));
      socket.destroy();
      await gone;
      const started = Date.now();
      await f.t.app.close();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await f.close().catch(() => {});
    }
  });
});

describe('relay lane on shutdown', () => {
  it('finishes the calls in flight and settles them before the app lets go of the database', async () => {
    const mock = await startMockOpenAI();
    const f = await startRelay(sqlite);
    const db = f.t.app.ctx.db.kysely;
    try {
      await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini' });
      const { key: k } = await f.token();
      mock.behaviour = { delayMs: 300 };
      const calls = Array.from({ length: 5 }, () =>
        fetch(`${f.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: JSON.stringify(chat) }),
      );
      // All five in flight: the upstream holds each for 300 ms.
      await expect.poll(() => mock.requests.length, { timeout: 10_000, interval: 10 }).toBe(5);
      const closing = f.t.app.close();
      const answers = await Promise.all(calls);
      await closing;
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      const logs = await db.selectFrom('logs').select('id').where('type', '=', 2).execute();
      expect(logs).toHaveLength(5);
    } finally {
      await f.close().catch(() => {});
      await mock.close();
    }
  });
});
