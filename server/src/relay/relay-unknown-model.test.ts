import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { requireRoutable } from './availability.js';
import { RelayError } from './errors.js';

/*
 * A model no channel of the caller's group lists is not found (404), in every format, so SDKs do not retry it; a
 * model some channel of the group lists but none can serve now is unavailable (503), which is worth retrying later.
 */

const [sqlite] = testDatabases(['sqlite']);

describe('models without a channel', () => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  let key: string;
  let disabledChannel: number;

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(sqlite);
    await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini' });
    await f.channel({ base_url: mock.url, key: mock.key, models: 'vip-only', group: 'vip' });
    disabledChannel = await f.channel({ base_url: mock.url, key: mock.key, models: 'switched-off' });
    const res = await f.t.call(f.root, { method: 'PUT', url: '/api/channel/', payload: { id: disabledChannel, status: 2 } });
    expect(res.json().success).toBe(true);
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 1, 'vip-only': 1, 'switched-off': 1 }));
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  /** A fetch that counts the HTTP calls an SDK makes. */
  function counting(): { fetch: typeof fetch; calls: () => number } {
    let n = 0;
    return {
      fetch: (input, init) => {
        n++;
        return fetch(input, init);
      },
      calls: () => n,
    };
  }

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${f.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers 404 model_not_found in OpenAI format, which the OpenAI SDK does not retry', async () => {
    const counter = counting();
    const client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 2, fetch: counter.fetch });
    const err = (await client.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.error).toMatchObject({ type: 'not_found_error', code: 'model_not_found', message: '当前分组 default 下对于模型 gpt-nope 无可用渠道' });
    expect(counter.calls()).toBe(1);
  });

  it('answers 404 not_found_error in Claude format, which the Anthropic SDK does not retry', async () => {
    const counter = counting();
    const client = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 2, fetch: counter.fetch });
    const err = (await client.messages.create({ model: 'claude-nope', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(counter.calls()).toBe(1);
  });

  it('answers 404 NOT_FOUND in Gemini format', async () => {
    const res = await post('/v1beta/models/gemini-nope:generateContent', { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: expect.stringContaining('gemini-nope'), status: 'NOT_FOUND' } });
  });

  it('answers 404 for a model served only in another group', async () => {
    const res = await post('/v1/chat/completions', { model: 'vip-only', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
  });

  it('answers 503 for a model whose every channel in the group is disabled', async () => {
    const calls = mock.requests.length;
    const res = await post('/v1/chat/completions', { model: 'switched-off', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ type: 'server_error', code: 'no_available_channel', message: expect.stringContaining('无可用渠道') });
    const claude = await post('/v1/messages', { model: 'switched-off', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    expect(claude.status).toBe(503);
    expect(mock.requests.length).toBe(calls);
  });

  it('tells calls answered outside the pipeline the same (requireRoutable)', () => {
    const ctx = f.t.app.ctx;
    expect(() => requireRoutable(ctx, 'default', 'gpt-4o-mini')).not.toThrow();
    const notFound = (() => {
      try {
        requireRoutable(ctx, 'default', 'gpt-nope');
      } catch (err) {
        return err;
      }
    })();
    expect(notFound).toBeInstanceOf(RelayError);
    expect(notFound).toMatchObject({ status: 404, code: 'model_not_found' });
    expect(() => requireRoutable(ctx, 'default', 'switched-off')).toThrow(expect.objectContaining({ status: 503 }) as Error);
  });
});
