import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDatabases } from './test/databases.js';
import { startRelay, type RelayFixture } from './test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from './test/mock-openai.js';
import { gracefulShutdown } from './shutdown.js';

/*
 * A graceful shutdown is bounded by SHUTDOWN_TIMEOUT: calls in flight drain until shortly before it, then the
 * streams still open end with their format's error event and are billed for what they delivered; calls that arrive
 * meanwhile get 503 in their own format; what is owed is written; the process exits by the deadline, every time.
 */

const MODEL = 'gpt-4o';
const LONG = Array.from({ length: 400 }, (_, i) => ` w${i}`);

describe.each(testDatabases())('shutdown on $name', (database) => {
  let f: RelayFixture;
  let upstream: MockOpenAI;
  let token: { id: number; key: string };
  let exited: Promise<{ code: number; at: number }>;
  let exit: (code: number) => void;

  beforeEach(async () => {
    upstream = await startMockOpenAI('sk-up');
    upstream.behaviour = { delayMs: 25, chunks: LONG };
    f = await startRelay(database);
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1.25 }));
    // A custom OpenAI-compatible channel: Responses calls are converted through chat (type 1 would pass them through).
    await f.channel({ type: 8, base_url: upstream.url, key: upstream.key, models: MODEL });
    token = await f.token({ unlimited_quota: false, remain_quota: 50_000_000 });
    exited = new Promise((resolve) => {
      exit = (code) => resolve({ code, at: Date.now() });
    });
  });
  afterEach(async () => {
    await f.close();
    await upstream.close();
  });

  async function ledger() {
    const db = f.t.app.ctx.db.kysely;
    const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', f.root.userId).executeTakeFirstOrThrow();
    const tok = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
    const logs = await db
      .selectFrom('logs')
      .select([sql<number>`coalesce(sum(quota), 0)`.as('sum'), sql<number>`count(*)`.as('count')])
      .where('token_id', '=', token.id)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    return { user, tok, sum: Number(logs.sum), count: Number(logs.count) };
  }

  /** Reads an SSE body as text until it ends, noting when the first data arrived. */
  async function readAll(res: Response, onData: () => void): Promise<string> {
    const reader = res.body!.getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return text;
      text += Buffer.from(value!).toString('utf8');
      onData();
    }
  }

  /** Four streams in four formats (OpenAI passthrough; Claude, Gemini and Responses converted), each under way. */
  async function openStreams() {
    const headers = { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' };
    const started: Array<Promise<void>> = [];
    const open = (path: string, body: unknown) => {
      let began!: () => void;
      started.push(new Promise<void>((r) => (began = r)));
      return fetch(`${f.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((res) => readAll(res, () => began()));
    };
    const streams = {
      openai: open('/v1/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      claude: open('/v1/messages', { model: MODEL, stream: true, max_tokens: 4000, messages: [{ role: 'user', content: 'hi' }] }),
      gemini: open(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      responses: open('/v1/responses', { model: MODEL, stream: true, input: 'hi' }),
    };
    await Promise.all(started);
    return streams;
  }

  it('ends the streams still open at the deadline with an error event in their format, bills them, and exits in time', async () => {
    const before = await ledger();
    const streams = await openStreams();
    const startedAt = Date.now();
    gracefulShutdown(f.t.app, { timeoutMs: 3000, exit })('SIGTERM');

    // A call that arrives during the drain is turned away in its own format.
    const late = await fetch(`${f.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': token.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(late.status).toBe(503);
    expect(await late.json()).toMatchObject({ type: 'error', error: { message: '服务正在关闭，请稍后重试' } });

    const [openai, claude, gemini, responses] = await Promise.all([streams.openai, streams.claude, streams.gemini, streams.responses]);
    expect(openai).toContain('"error":{"message":"服务正在关闭，请稍后重试"');
    expect(claude).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"\w+","message":"服务正在关闭，请稍后重试"\}\}/);
    expect(gemini).toContain('"status":"UNAVAILABLE"');
    expect(responses).toContain('event: error');
    for (const text of [openai, claude, gemini, responses]) expect(text).toContain(' w1');

    const { code, at } = await exited;
    expect(code).toBe(0);
    // Drained until a sixth of the timeout was left (1 s), then stopped and closed: well inside the 3 s.
    expect(at - startedAt).toBeGreaterThanOrEqual(1500);
    expect(at - startedAt).toBeLessThan(3000);

    const after = await ledger();
    expect(after.count - before.count).toBe(4);
    const charged = after.sum - before.sum;
    expect(charged).toBeGreaterThan(0);
    expect(before.user.quota - after.user.quota).toBe(charged);
    expect(before.tok.remain_quota - after.tok.remain_quota).toBe(charged);
    expect(after.tok.used_quota - before.tok.used_quota).toBe(charged);
    const notes = await f.t.app.ctx.db.kysely.selectFrom('logs').select('content').where('token_id', '=', token.id).execute();
    for (const { content } of notes) expect(content).toContain('服务关闭时中止');
  });

  it('stops every call at once on a second signal and exits after writing what they owe', async () => {
    const before = await ledger();
    const streams = await openStreams();
    const claudeSdk = new Anthropic({ apiKey: token.key, baseURL: f.baseUrl, maxRetries: 0 });
    const shutdown = gracefulShutdown(f.t.app, { timeoutMs: 30_000, exit });
    const startedAt = Date.now();
    shutdown('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    shutdown('SIGTERM');
    await Promise.all(Object.values(streams));
    await expect(claudeSdk.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeTruthy();
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - startedAt).toBeLessThan(3000);
    const after = await ledger();
    expect(after.count - before.count).toBe(4);
    expect(before.user.quota - after.user.quota).toBe(after.sum - before.sum);
    expect(before.tok.remain_quota - after.tok.remain_quota).toBe(after.sum - before.sum);
  });

  it('exits by SHUTDOWN_TIMEOUT even when closing never finishes', async () => {
    const streams = await openStreams();
    // A database that no longer answers: the final write never completes.
    const settler = f.t.app.ctx.relay.settler;
    const realClose = settler.close.bind(settler);
    const stuck: Array<() => void> = [];
    settler.close = () => new Promise<number>((resolve) => stuck.push(() => resolve(0)));
    const startedAt = Date.now();
    gracefulShutdown(f.t.app, { timeoutMs: 2000, exit })('SIGTERM');
    await Promise.all(Object.values(streams));
    const { code, at } = await exited;
    expect(code).toBe(1);
    expect(at - startedAt).toBeLessThanOrEqual(2100);
    settler.close = realClose;
    for (const release of stuck) release();
  });
});
