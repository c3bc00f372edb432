import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/*
 * Every refusal answers in OpenAI's error shape with the right status and one of OpenAI's documented error types,
 * and never leaks the channel's key or URL.
 */

const DOCUMENTED_TYPES = ['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'rate_limit_error', 'insufficient_quota', 'server_error'];

const [sqlite] = testDatabases(['sqlite']);

describe('relay errors', () => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  let key: string;

  const post = (path: string, body: string | object, headers: Record<string, string> = {}) =>
    fetch(`${f.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  async function expectError(res: Response, status: number, message?: RegExp | string) {
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { message: string; type: string; code: string | null } };
    expect(body.error).toBeDefined();
    expect(typeof body.error.message).toBe('string');
    expect(DOCUMENTED_TYPES).toContain(body.error.type);
    if (message) expect(body.error.message).toMatch(message);
    expect(JSON.stringify(body)).not.toContain(mock.key);
    expect(JSON.stringify(body)).not.toContain(mock.url);
    return body.error;
  }

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(sqlite, { MAX_REQUEST_BODY_MB: '1' });
    await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini,unpriced-model' });
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

  it('refuses a missing key with 401', async () => {
    expect(await expectError(await post('/v1/chat/completions', chat, { authorization: '' }), 401, '未提供令牌')).toMatchObject({ type: 'authentication_error' });
  });

  it('refuses an unknown key with 401', async () => {
    await expectError(await post('/v1/chat/completions', chat, { authorization: 'Bearer sk-nope' }), 401, '无效的令牌');
  });

  it('refuses a disabled token with 401 at once', async () => {
    const token = await f.token({ name: 'to-disable' });
    const res = await f.t.call(f.root, { method: 'PUT', url: '/api/token/?status_only=true', payload: { id: token.id, status: 2 } });
    expect(res.json().success).toBe(true);
    await expectError(await post('/v1/chat/completions', chat, { authorization: `Bearer ${token.key}` }), 401, '该令牌状态不可用');
  });

  it('refuses an exhausted token with 401 and a token without enough quota with 403', async () => {
    const empty = await f.token({ unlimited_quota: false, remain_quota: 0 });
    await expectError(await post('/v1/chat/completions', chat, { authorization: `Bearer ${empty.key}` }), 401, '额度已用尽');
    const small = await f.token({ unlimited_quota: false, remain_quota: 1 });
    const res = await post('/v1/chat/completions', { ...chat, max_tokens: 100000 }, { authorization: `Bearer ${small.key}` });
    const err = await expectError(res, 403, '令牌额度不足');
    expect(err).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_token_quota' });
  });

  it('refuses malformed JSON and missing fields with 400', async () => {
    await expectError(await post('/v1/chat/completions', '{"model":'), 400, '不是合法的 JSON');
    await expectError(await post('/v1/chat/completions', { model: 'gpt-4o-mini' }), 400, 'messages');
    await expectError(await post('/v1/chat/completions', { messages: [] }), 400);
    await expectError(await post('/v1/chat/completions', { model: 5, messages: [] }), 400, 'model');
  });

  it('refuses a body over the limit with 413', async () => {
    const big = { ...chat, messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] };
    await expectError(await post('/v1/chat/completions', big), 413);
  });

  it('refuses a model no channel serves with 404 model_not_found', async () => {
    const err = await expectError(await post('/v1/chat/completions', { ...chat, model: 'gpt-unknown' }), 404, '无可用渠道');
    expect(err).toMatchObject({ type: 'not_found_error', code: 'model_not_found' });
  });

  it('refuses a model with neither price nor ratio with a clear message', async () => {
    await expectError(await post('/v1/chat/completions', { ...chat, model: 'unpriced-model' }), 400, '倍率或价格未配置');
  });

  it('passes an upstream error on in OpenAI shape without the key', async () => {
    mock.queue.push({ fail: { status: 400, message: 'Invalid value for temperature', type: 'invalid_request_error', code: 'invalid_value' } });
    const err = await expectError(await post('/v1/chat/completions', chat), 400, 'temperature');
    expect(err.code).toBe('invalid_value');
  });

  it('rewrites a final upstream 429 to the saturation message', async () => {
    mock.queue.push({ fail: { status: 429 } });
    await expectError(await post('/v1/chat/completions', chat), 429, '负载已饱和');
  });

  it('reports an unreachable upstream without its address', async () => {
    const ch = await f.channel({ base_url: 'http://127.0.0.1:9', key: 'k', models: 'gpt-dead', name: 'dead' });
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'gpt-dead': 1 }));
    expect(await expectError(await post('/v1/chat/completions', { ...chat, model: 'gpt-dead' }), 502, '请求上游地址失败')).toMatchObject({ type: 'server_error' });
    expect(ch).toBeGreaterThan(0);
  });

  it('answers unknown relay paths with an OpenAI-shaped 404 and unimplemented ones with 501', async () => {
    await expectError(await post('/v1/nope', chat), 404, 'Invalid URL');
    await expectError(await post('/v1/images/edits', chat), 501, 'not implemented');
  });

  it('checks the key before saying a call is not implemented: a bad key hears 401', async () => {
    const calls: Array<[string, string]> = [
      ['POST', '/v1/images/edits'],
      ['POST', '/v1/images/variations'],
      ['GET', '/v1/files'],
      ['POST', '/v1/files'],
      ['GET', '/v1/files/file-1'],
      ['DELETE', '/v1/files/file-1'],
      ['GET', '/v1/files/file-1/content'],
      ['GET', '/v1/fine-tunes'],
      ['POST', '/v1/fine-tunes'],
      ['DELETE', '/v1/models/ft-1'],
    ];
    for (const [method, path] of calls) {
      const call = (authorization: string) => fetch(`${f.baseUrl}${path}`, { method, headers: { authorization } });
      expect(await expectError(await call(''), 401, '未提供令牌'), `${method} ${path}`).toMatchObject({ type: 'authentication_error' });
      expect(await expectError(await call('Bearer sk-nope'), 401, '无效的令牌'), `${method} ${path}`).toMatchObject({ type: 'authentication_error' });
      expect(await expectError(await call(`Bearer ${key}`), 501, 'API not implemented'), `${method} ${path}`).toMatchObject({ code: 'api_not_implemented' });
    }
  });

  it('refuses a pinned channel for an ordinary user', async () => {
    const alice = await f.t.user('alice');
    const created = await f.t.call(alice, { method: 'POST', url: '/api/token/', payload: { name: 'a', unlimited_quota: true, expired_time: -1, remain_quota: 0 } });
    const aliceKey = `sk-${created.json().data.key}-1`;
    await expectError(await post('/v1/chat/completions', chat, { authorization: `Bearer ${aliceKey}` }), 403, '普通用户不支持指定渠道');
  });

  it('refuses a model outside the token model limits', async () => {
    const limited = await f.token({ model_limits_enabled: true, model_limits: 'gpt-4o' });
    await expectError(await post('/v1/chat/completions', chat, { authorization: `Bearer ${limited.key}` }), 403, '无权访问模型');
  });

  it('refuses a caller outside the token IP allow list', async () => {
    const fenced = await f.token({ allow_ips: '10.1.2.3' });
    expect(await expectError(await post('/v1/chat/completions', chat, { authorization: `Bearer ${fenced.key}` }), 403, 'IP')).toMatchObject({ type: 'permission_error' });
    const open = await f.token({ allow_ips: '127.0.0.1' });
    expect((await post('/v1/chat/completions', chat, { authorization: `Bearer ${open.key}` })).status).toBe(200);
  });
});
