import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { describeWithServices } from '../test/services.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { booksOf, openAccount, type Account } from '../test/ledger.js';
import { startPrivateRedis, type PrivateRedis } from '../test/private-redis.js';
import type { MemoryRateLimiter } from '../services/rate-limit/memory.js';

/*
 * The model request limit (ModelRequestRateLimit* options): per user, all calls and successful calls within the
 * period, refused with 429 in the caller's format before anything is reserved, on one node and across nodes
 * sharing Redis.
 */

const [sqlite] = testDatabases(['sqlite']);
const MODEL = 'gpt-4o-mini';
/** A custom OpenAI-compatible channel (chat only): every client format is converted to its chat calls. */
const CUSTOM_CHAT_ONLY = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Format = 'openai' | 'claude' | 'gemini' | 'responses';

/** One small call in each client format, all against the same OpenAI channel. */
function call(baseUrl: string, key: string, format: Format): Promise<Response> {
  const json = (path: string, body: object, headers: Record<string, string>) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const bearer = { authorization: `Bearer ${key}` };
  switch (format) {
    case 'openai':
      return json('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, bearer);
    case 'claude':
      return json('/v1/messages', { model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': key, 'anthropic-version': '2023-06-01' });
    case 'gemini':
      return json(`/v1beta/models/${MODEL}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, { 'x-goog-api-key': key });
    case 'responses':
      return json('/v1/responses', { model: MODEL, input: 'hi' }, bearer);
  }
}

/** What each format's refusal looks like, with the message the limit gives. */
function refusalIn(format: Format, message: string): object {
  switch (format) {
    case 'claude':
      return { type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining(message) } };
    case 'gemini':
      return { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.stringContaining(message) } };
    default:
      return { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: expect.stringContaining(message) } };
  }
}

async function setLimits(f: RelayFixture, limits: { enabled: boolean; minutes?: number; count?: number; success?: number }): Promise<void> {
  await f.setOption('ModelRequestRateLimitEnabled', String(limits.enabled));
  await f.setOption('ModelRequestRateLimitDurationMinutes', String(limits.minutes ?? 1));
  await f.setOption('ModelRequestRateLimitCount', String(limits.count ?? 0));
  await f.setOption('ModelRequestRateLimitSuccessCount', String(limits.success ?? 1000));
}

describe('the model request limit on one node', () => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  const account = () => openAccount(f.t.app.ctx.db.kysely, { quota: 100_000_000 });

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(sqlite);
    await f.channel({ type: CUSTOM_CHAT_ONLY, base_url: mock.url, key: mock.key, models: MODEL });
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it('does nothing at all while switched off', async () => {
    await setLimits(f, { enabled: false, count: 1, success: 1 });
    const a = await account();
    for (let i = 0; i < 3; i++) expect((await call(f.baseUrl, a.key, 'openai')).status).toBe(200);
    expect((f.t.app.ctx.rateLimiter as MemoryRateLimiter).keys).toBe(0);
  });

  it.each<Format>(['openai', 'claude', 'gemini', 'responses'])('refuses the call past ModelRequestRateLimitCount with 429 in %s format, uncharged', async (format) => {
    await setLimits(f, { enabled: true, minutes: 2, count: 2 });
    const a = await account();
    for (let i = 0; i < 2; i++) expect((await call(f.baseUrl, a.key, format)).status).toBe(200);
    await f.flush();
    const before = await booksOf(f.t.app.ctx.db.kysely, a);
    const upstreamCalls = mock.requests.length;
    const refused = await call(f.baseUrl, a.key, format);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject(refusalIn(format, '您已达到请求数限制：2分钟内最多请求2次'));
    // Room comes back when the first of the two calls is two minutes old.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(100);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(120);
    await f.flush();
    // Never sent upstream, never charged, never logged.
    expect(mock.requests.length).toBe(upstreamCalls);
    expect(await booksOf(f.t.app.ctx.db.kysely, a)).toEqual(before);
    // Another user has a budget of their own.
    expect((await call(f.baseUrl, (await account()).key, format)).status).toBe(200);
  });

  it('counts failed calls against the total but not against ModelRequestRateLimitSuccessCount', async () => {
    await setLimits(f, { enabled: true, count: 0, success: 2 });
    const a = await account();
    mock.queue.push(...Array.from({ length: 4 }, () => ({ fail: { status: 400, message: 'bad' } })));
    for (let i = 0; i < 4; i++) expect((await call(f.baseUrl, a.key, 'openai')).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await call(f.baseUrl, a.key, 'openai')).status).toBe(200);
    const refused = await call(f.baseUrl, a.key, 'claude');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject(refusalIn('claude', '您已达到请求数限制：1分钟内最多请求2次'));

    // With a total too, failures use it up.
    await setLimits(f, { enabled: true, count: 3, success: 1000 });
    const b = await account();
    mock.queue.push(...Array.from({ length: 3 }, () => ({ fail: { status: 400, message: 'bad' } })));
    for (let i = 0; i < 3; i++) expect((await call(f.baseUrl, b.key, 'openai')).status).toBe(400);
    expect((await call(f.baseUrl, b.key, 'openai')).status).toBe(429);
  });

  it('counts a streamed answer as a success once it is delivered', async () => {
    await setLimits(f, { enabled: true, success: 1 });
    const a = await account();
    const stream = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${a.key}` },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('[DONE]');
    await expect.poll(async () => (await call(f.baseUrl, a.key, 'gemini')).status).toBe(429);
  });

  it('leaves the console playground out, as the established gateway does', async () => {
    await setLimits(f, { enabled: true, count: 1 });
    const admin = await f.t.app.inject({ method: 'GET', url: '/api/user/self', headers: f.root.headers });
    expect(admin.statusCode).toBe(200);
    const playground = () => f.t.call(f.root, { method: 'POST', url: '/pg/chat/completions', payload: { model: MODEL, messages: [{ role: 'user', content: 'hi' }] } });
    for (let i = 0; i < 3; i++) expect((await playground()).statusCode).toBe(200);
    await setLimits(f, { enabled: false });
  });
});

describeWithServices(['redis-server'], 'the model request limit on two nodes sharing Redis', () => {
  let redis: PrivateRedis;
  let mock: MockOpenAI;
  const nodes: RelayFixture[] = [];
  /** The same user on both nodes: each node has its own database, and the accounts are made in step (same id). */
  let accounts: Account[] = [];

  const sameUser = async () => {
    accounts = await Promise.all(nodes.map((n) => openAccount(n.t.app.ctx.db.kysely, { quota: 100_000_000 })));
    expect(accounts[0].userId).toBe(accounts[1].userId);
  };
  const callOn = (node: number, format: Format = 'openai') => call(nodes[node].baseUrl, accounts[node].key, format);
  const everywhere = (limits: Parameters<typeof setLimits>[1]) => Promise.all(nodes.map((n) => setLimits(n, limits)));

  beforeAll(async () => {
    redis = await startPrivateRedis();
    mock = await startMockOpenAI();
    for (let i = 0; i < 2; i++) {
      const node = await startRelay(sqlite, { REDIS_CONN_STRING: redis.url });
      await node.channel({ type: CUSTOM_CHAT_ONLY, base_url: mock.url, key: mock.key, models: MODEL });
      nodes.push(node);
    }
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await mock.close();
    await redis?.close();
  });

  it('holds the total in Redis: the limit is the users total, not per node', async () => {
    await everywhere({ enabled: true, count: 4 });
    await sameUser();
    const statuses = await Promise.all([0, 1, 0, 1, 0, 1].map((n) => callOn(n).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await callOn(1, 'gemini');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(40);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject(refusalIn('gemini', '您已达到请求数限制：1分钟内最多请求4次'));
  });

  it('counts successes across nodes, and not failures', async () => {
    await everywhere({ enabled: true, success: 2 });
    await sameUser();
    mock.queue.push({ fail: { status: 400, message: 'bad' } }, { fail: { status: 400, message: 'bad' } });
    expect((await callOn(0)).status).toBe(400);
    expect((await callOn(1)).status).toBe(400);
    expect((await callOn(0)).status).toBe(200);
    expect((await callOn(1)).status).toBe(200);
    await expect.poll(async () => (await callOn(0, 'responses')).status).toBe(429);
    expect((await callOn(1, 'claude')).status).toBe(429);
  });

  it('admits calls, with a warning, while Redis is down, and limits again once it is back', async () => {
    await everywhere({ enabled: true, count: 1 });
    await sameUser();
    const app = nodes[0].t.app;
    const warnings: string[] = [];
    const warn = app.log.warn.bind(app.log);
    app.log.warn = ((obj: unknown, msg?: string) => {
      warnings.push(typeof obj === 'string' ? obj : (msg ?? ''));
      return warn(obj as never, msg as never);
    }) as typeof app.log.warn;
    await redis.kill();
    for (let i = 0; i < 3; i++) expect((await callOn(0)).status).toBe(200);
    expect(warnings).toContain('rate limits cannot reach Redis: requests are admitted without limits until it is back');
    await redis.restart();
    // Once the limiter asks Redis again (after its pause), the limit holds.
    await sleep(5_100);
    await expect.poll(async () => (await callOn(0)).status, { timeout: 5_000 }).toBe(429);
    expect(warnings).toContain('rate limits reach Redis again');
  }, 20_000);
});
