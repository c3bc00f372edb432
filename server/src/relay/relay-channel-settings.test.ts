import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelsChanged } from '../store/channels.js';
import { testDatabases } from '../test/databases.js';
import { startConnectProxy, startSocksProxy } from '../test/proxy-stand-ins.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';

/*
 * A channel's own settings reach its upstream whatever the provider: param_override written over the body (never the
 * stream switch), the system prompt in the request, and every call through the channel's http or socks5 proxy.
 */

const [sqlite] = testDatabases(['sqlite']);

describe('per-channel settings in the relay', () => {
  let f: RelayFixture;
  let openai: MockOpenAI;
  let claude: ClaudeMock;
  let key: string;
  const hi = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hi' }] });
  const lastBody = (mock: { requests: Array<{ json: Record<string, unknown> | null }> }) => mock.requests[mock.requests.length - 1].json!;

  beforeAll(async () => {
    [openai, claude] = await Promise.all([startMockOpenAI(), startClaudeMock()]);
    f = await startRelay(sqlite);
    const models = ['gpt-po', 'gpt-po-stream', 'gpt-sys', 'gpt-sys-keep', 'gpt-sys-join', 'claude-haiku-4-5', 'gpt-http-proxy', 'gpt-auth-proxy', 'gpt-socks-proxy', 'gpt-plain'];
    await f.setOption('ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await Promise.all([openai.close(), claude.close()]);
  });

  it('writes param_override over the body the OpenAI SDK sent', async () => {
    await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-po', param_override: { temperature: 0.25, top_p: 0.5, seed: 42 } });
    await f.client(key).chat.completions.create({ ...hi('gpt-po'), temperature: 1.5 });
    expect(lastBody(openai)).toMatchObject({ model: 'gpt-po', temperature: 0.25, top_p: 0.5, seed: 42 });
  });

  it('never lets a stored param_override turn a stream off: the call still streams and is billed from the stream', async () => {
    const id = await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-po-stream', param_override: { max_tokens: 99 } });
    // Written as another tool may have stored it: the console refuses these keys, the relay ignores them.
    await f.t.app.ctx.db.kysely
      .updateTable('channels')
      .set({ param_override: JSON.stringify({ stream: false, stream_options: { include_usage: false }, max_tokens: 99 }) })
      .where('id', '=', id)
      .execute();
    await channelsChanged(f.t.app.ctx);
    const stream = await f.client(key).chat.completions.create({ ...hi('gpt-po-stream'), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the mock upstream.');
    expect(lastBody(openai)).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 99 });
    await f.flush();
    const log = await f.t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('model_name', '=', 'gpt-po-stream').executeTakeFirstOrThrow();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([11, 7]);
  });

  it('puts the system prompt first in an OpenAI channel when the caller sent none', async () => {
    await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-sys', setting: { system_prompt: '你是客服助手。' } });
    await f.client(key).chat.completions.create(hi('gpt-sys'));
    expect(lastBody(openai).messages).toEqual([
      { role: 'system', content: '你是客服助手。' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it("keeps the caller's system message unless the channel overrides, then puts the prompt in front of it", async () => {
    await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-sys-keep', setting: JSON.stringify({ system_prompt: 'P' }) });
    await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-sys-join', setting: { system_prompt: 'P', system_prompt_override: true } });
    const messages = [
      { role: 'system' as const, content: 'mine' },
      { role: 'user' as const, content: 'hi' },
    ];
    await f.client(key).chat.completions.create({ model: 'gpt-sys-keep', messages });
    expect(lastBody(openai).messages).toEqual(messages);
    await f.client(key).chat.completions.create({ model: 'gpt-sys-join', messages });
    expect((lastBody(openai).messages as unknown[])[0]).toEqual({ role: 'system', content: 'P\nmine' });
  });

  it('gives a Claude channel the system prompt, from an OpenAI caller (converted) and a Claude caller (passed through)', async () => {
    await f.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: 'claude-haiku-4-5', setting: { system_prompt: 'Answer briefly.' } });
    await f.client(key).chat.completions.create({ ...hi('claude-haiku-4-5'), max_tokens: 64 });
    const converted = lastBody(claude);
    expect(JSON.stringify(converted.system)).toContain('Answer briefly.');
    expect(converted.messages).toEqual([{ role: 'user', content: expect.anything() }]);

    const res = await fetch(`${f.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(lastBody(claude).system).toBe('Answer briefly.');
  });

  it('sends the calls of a channel with an http proxy through it, and only those', async () => {
    const proxy = await startConnectProxy();
    try {
      const upstreamHost = new URL(openai.url).host;
      await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-http-proxy', setting: { proxy: proxy.url } });
      await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-plain' });
      const answer = await f.client(key).chat.completions.create(hi('gpt-http-proxy'));
      expect(answer.choices[0].message.content).toBeTruthy();
      expect(proxy.seen.map((s) => s.target)).toEqual([upstreamHost]);
      const stream = await f.client(key).chat.completions.create({ ...hi('gpt-http-proxy'), stream: true });
      for await (const chunk of stream) void chunk;
      await f.client(key).chat.completions.create(hi('gpt-plain'));
      expect(proxy.seen.length).toBeGreaterThanOrEqual(1);
      expect(proxy.seen.every((s) => s.target === upstreamHost)).toBe(true);
      const before = proxy.seen.length;
      await f.client(key).chat.completions.create(hi('gpt-plain'));
      expect(proxy.seen.length).toBe(before);

      const [user, pass] = ['relay', 'p@ss'];
      const withAuth = `http://${user}:${encodeURIComponent(pass)}@127.0.0.1:${proxy.port}`;
      await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-auth-proxy', setting: { proxy: withAuth } });
      await f.client(key).chat.completions.create(hi('gpt-auth-proxy'));
      expect(proxy.seen[proxy.seen.length - 1].auth).toBe(`Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`);
    } finally {
      await proxy.close();
    }
  });

  it('sends the calls of a channel with a socks5 proxy through it', async () => {
    const proxy = await startSocksProxy();
    try {
      await f.channel({ base_url: openai.url, key: openai.key, models: 'gpt-socks-proxy', setting: { proxy: proxy.url } });
      const answer = await f.client(key).chat.completions.create(hi('gpt-socks-proxy'));
      expect(answer.choices[0].message.content).toBeTruthy();
      const stream = await f.client(key).chat.completions.create({ ...hi('gpt-socks-proxy'), stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('Hello from the mock upstream.');
      expect(proxy.seen.length).toBeGreaterThanOrEqual(1);
      expect(new Set(proxy.seen)).toEqual(new Set([new URL(openai.url).host]));
    } finally {
      await proxy.close();
    }
  });
});
