import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { startGeminiMock, type GeminiMock } from '../test/mocks/gemini.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';

/*
 * An upstream that refuses a channel's key is the gateway's problem, never the caller's: the caller gets a 502
 * upstream_auth_failed in its own format (never a 401 or invalid_api_key that would blame its own key, never the
 * upstream's message, which may quote the channel's key), the call moves on to another channel, and auto-disable
 * still judges the upstream's real answer.
 */

const [sqlite] = testDatabases(['sqlite']);

describe('upstreams that refuse the channel key', () => {
  let f: RelayFixture;
  let good: MockOpenAI;
  let claude: ClaudeMock;
  let gemini: GeminiMock;
  let key: string;

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${f.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const chat = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hi' }] });
  const channelStatus = async (id: number) =>
    f.t.app.ctx.db.kysely.selectFrom('channels').select(['status', 'other_info']).where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    [good, claude, gemini] = await Promise.all([startMockOpenAI(), startClaudeMock(), startGeminiMock()]);
    f = await startRelay(sqlite);
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-bad-key': 1, 'gpt-forbidden': 1, 'gpt-failover': 1, 'claude-bad-key': 1, 'gemini-bad-key': 1 }));
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await Promise.all([good.close(), claude.close(), gemini.close()]);
  });

  it('answers an OpenAI caller 502 upstream_auth_failed, not the upstream 401 invalid_api_key, and auto-disables on the real 401', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', 'true');
    const id = await f.channel({ base_url: good.url, key: 'sk-wrong-channel-key', models: 'gpt-bad-key' });
    const res = await post('/v1/chat/completions', chat('gpt-bad-key'));
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: { message: expect.stringContaining('上游拒绝了渠道的凭证（HTTP 401）'), type: 'server_error', param: null, code: 'upstream_auth_failed' },
    });
    expect(text).not.toMatch(/invalid_api_key|Incorrect API key|sk-wrong/);
    await expect.poll(async () => (await channelStatus(id)).status).toBe(3);
    expect(JSON.parse((await channelStatus(id)).other_info).status_reason).toMatch(/^status 401: /);
    await f.setOption('AutomaticDisableChannelEnabled', 'false');
  });

  it('gives the OpenAI SDK a server error, not an AuthenticationError', async () => {
    await f.channel({ base_url: good.url, key: good.key, models: 'gpt-forbidden' });
    good.queue.push({ fail: { status: 403, message: 'Project does not have access to model', type: 'invalid_request_error', code: 'model_not_found' } });
    const err = await f.client(key).chat.completions.create(chat('gpt-forbidden')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err).not.toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_auth_failed');
  });

  it('moves on to another channel when one refuses its key', async () => {
    await f.channel({ base_url: good.url, key: 'sk-wrong', models: 'gpt-failover', priority: 10 });
    await f.channel({ base_url: good.url, key: good.key, models: 'gpt-failover', priority: 0 });
    await f.setOption('RetryTimes', '1');
    const res = await post('/v1/chat/completions', chat('gpt-failover'));
    expect(res.status).toBe(200);
    await f.setOption('RetryTimes', '0');
  });

  it('answers a Claude caller 502 api_error when the Claude upstream refuses the key', async () => {
    await f.channel({ type: 14, base_url: claude.url, key: 'sk-ant-wrong', models: 'claude-bad-key' });
    const res = await post('/v1/messages', { model: 'claude-bad-key', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('上游拒绝了渠道的凭证') } });
  });

  it("treats Gemini's 400 API_KEY_INVALID as a refused key: 502 to the caller, and auto-disable acts", async () => {
    await f.setOption('AutomaticDisableChannelEnabled', 'true');
    const id = await f.channel({ type: 24, base_url: gemini.url, key: 'AIza-wrong', models: 'gemini-bad-key' });
    const res = await post('/v1beta/models/gemini-bad-key:generateContent', { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: 502, message: expect.stringContaining('上游拒绝了渠道的凭证（HTTP 400）'), status: 'UNAVAILABLE' } });
    await expect.poll(async () => (await channelStatus(id)).status).toBe(3);
    expect(JSON.parse((await channelStatus(id)).other_info).status_reason).toContain('API key not valid');
    await f.setOption('AutomaticDisableChannelEnabled', 'false');
  });
});
