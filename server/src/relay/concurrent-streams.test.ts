import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { listenLocal, type LocalServer } from '../test/mocks/local-server.js';

/*
 * Many streams to one upstream at once: nothing between the client and the upstream caps how many are open (no
 * pool queue), and UPSTREAM_MAX_CONNECTIONS, when reached, refuses the next call at once in the caller's format.
 */

const MODEL = 'gpt-4o';
const FIRST = Buffer.from(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] })}\n\n`);
const LAST = Buffer.from(
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } })}\n\ndata: [DONE]\n\n`,
);

/** An upstream that writes a first event at once and holds every stream open until told (or `holdMs` passed). */
interface HoldingUpstream extends LocalServer {
  open(): number;
  peak(): number;
  /** Resolves when `n` streams are open at once. */
  reach(n: number, timeoutMs: number): Promise<boolean>;
  /** Ends every stream held now. */
  release(): void;
  holdMs: number;
}

async function holdingUpstream(): Promise<HoldingUpstream> {
  let open = 0;
  let peak = 0;
  let held: http.ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve: (ok: boolean) => void }> = [];
  const up = { holdMs: 60_000 } as HoldingUpstream;
  const server = await listenLocal((_req, body, res) => {
    const stream = (JSON.parse(body.toString()) as { stream?: boolean }).stream === true;
    open++;
    peak = Math.max(peak, open);
    res.on('close', () => open--);
    for (const w of waiters.splice(0)) if (open >= w.n) w.resolve(true);
    else waiters.push(w);
    if (!stream) {
      const answer = { id: 'c', object: 'chat.completion', created: 1, model: MODEL, choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } };
      const finish = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      held.push(Object.assign(res, { finishHeld: finish }));
      setTimeout(() => !res.writableEnded && finish(), up.holdMs);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(FIRST);
    const finish = () => res.end(LAST);
    held.push(Object.assign(res, { finishHeld: finish }));
    setTimeout(() => !res.writableEnded && finish(), up.holdMs);
  });
  return Object.assign(up, server, {
    open: () => open,
    peak: () => peak,
    reach: (n: number, timeoutMs: number) =>
      new Promise<boolean>((resolve) => {
        if (open >= n) return resolve(true);
        waiters.push({ n, resolve });
        setTimeout(() => resolve(false), timeoutMs);
      }),
    release() {
      for (const res of held) if (!res.writableEnded) (res as http.ServerResponse & { finishHeld(): void }).finishHeld();
      held = [];
    },
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  firstByteMs: number;
}

function call(base: string, key: string, path = '/v1/chat/completions', payload: unknown = { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }): Promise<Answer> {
  const body = JSON.stringify(payload);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      agent: false,
    });
    req.on('response', (res) => {
      let firstByteMs = -1;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        if (firstByteMs < 0) firstByteMs = Date.now() - started;
        parts.push(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString(), firstByteMs }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const database = testDatabases(['sqlite'])[0];

describe(`2,000 streams to one upstream at once on ${database.name}`, () => {
  let f: RelayFixture;
  let upstream: HoldingUpstream;

  beforeAll(async () => {
    upstream = await holdingUpstream();
    f = await startRelay(database);
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await f.channel({ type: 8, base_url: upstream.url, key: 'sk-up', models: MODEL });
  });
  afterAll(async () => {
    await f.close();
    await upstream.close();
  });

  it('holds all 2,000 open at the upstream together, and every one ends whole and is billed once', async () => {
    const N = 2000;
    const { key, id } = await f.token();
    upstream.holdMs = 60_000;
    const answers = Array.from({ length: N }, () => call(f.baseUrl, key));
    const reached = await upstream.reach(N, 60_000);
    const peak = upstream.peak();
    upstream.release();
    const done = await Promise.all(answers);
    expect(reached, `most streams open at once: ${peak}`).toBe(true);
    expect(peak).toBe(N);
    expect(done.filter((a) => a.status !== 200 || !a.text.endsWith('data: [DONE]\n\n'))).toEqual([]);
    await f.flush();
    const db = f.t.app.ctx.db.kysely;
    const logs = await db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 2).where('token_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(logs.n)).toBe(N);
  }, 120_000);
});

describe(`UPSTREAM_MAX_CONNECTIONS on ${database.name}`, () => {
  let f: RelayFixture;
  let upstream: HoldingUpstream;
  let other: HoldingUpstream;
  const LIMIT = 3;

  beforeAll(async () => {
    upstream = await holdingUpstream();
    other = await holdingUpstream();
    f = await startRelay(database, { UPSTREAM_MAX_CONNECTIONS: String(LIMIT) });
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await f.channel({ type: 8, base_url: upstream.url, key: 'sk-up', models: MODEL });
  });
  afterAll(async () => {
    await f.close();
    await upstream.close();
    await other.close();
  });

  async function fill(key: string): Promise<Promise<Answer>[]> {
    upstream.holdMs = 30_000;
    const held = Array.from({ length: LIMIT }, (_, i) => call(f.baseUrl, key, '/v1/chat/completions', { model: MODEL, stream: i > 0, messages: [{ role: 'user', content: 'hi' }] }));
    expect(await upstream.reach(LIMIT, 10_000)).toBe(true);
    return held;
  }

  it('refuses the call past the limit at once with a 503 in each caller format, charging nothing', async () => {
    const user = await f.t.app.ctx.db.kysely.selectFrom('users').select('quota').where('username', '=', 'root').executeTakeFirstOrThrow();
    const { key } = await f.token({ unlimited_quota: false, remain_quota: 1_000_000 });
    const held = await fill(key);
    const started = Date.now();
    const openai = await call(f.baseUrl, key);
    const claude = await call(f.baseUrl, key, '/v1/messages', { model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const gemini = await call(f.baseUrl, key, `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const plain = await call(f.baseUrl, key, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    expect(Date.now() - started).toBeLessThan(2000);
    for (const a of [openai, claude, gemini, plain]) {
      expect(a.status).toBe(503);
      expect(a.headers['retry-after']).toBe('1');
      expect(a.text).toContain('并发已达上限');
    }
    expect(JSON.parse(openai.text).error.code).toBe('upstream_busy');
    expect(JSON.parse(claude.text)).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    expect(JSON.parse(gemini.text).error.status).toBe('UNAVAILABLE');
    expect(upstream.open()).toBe(LIMIT);

    upstream.release();
    for (const a of await Promise.all(held)) expect(a.status).toBe(200);
    // A place given back is taken again.
    upstream.holdMs = 0;
    expect((await call(f.baseUrl, key)).status).toBe(200);
    await f.flush();
    // The refused calls were never charged: the user paid for the four calls that were answered, nothing else.
    const db = f.t.app.ctx.db.kysely;
    const paid = await db.selectFrom('logs').select((eb) => eb.fn.sum<number>('quota').as('q')).where('type', '=', 2).executeTakeFirstOrThrow();
    const after = await db.selectFrom('users').select('quota').where('username', '=', 'root').executeTakeFirstOrThrow();
    expect(Number(user.quota) - Number(after.quota)).toBe(Number(paid.q));
    expect(f.t.app.ctx.relay.upstream.inFlight()).toEqual({});
  }, 60_000);

  it('sends the call past the limit to another channel whose origin has room', async () => {
    const { key } = await f.token();
    const held = await fill(key);
    await f.channel({ type: 8, base_url: other.url, key: 'sk-up', models: MODEL });
    await f.setOption('RetryTimes', '2');
    other.holdMs = 0;
    // Channels are picked at random: whichever this call picks first, it ends on the one with room.
    for (let i = 0; i < 5; i++) {
      const a = await call(f.baseUrl, key);
      expect(a.status, a.text).toBe(200);
    }
    upstream.release();
    await Promise.all(held);
    await f.setOption('RetryTimes', '0');
  }, 60_000);
});
