import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModels } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { CLAUDE_MOCK_KEY } from '../test/mocks/claude.js';
import { GEMINI_MOCK_KEY } from '../test/mocks/gemini.js';
import { testServiceAccount } from '../test/mocks/vertex.js';
import { startNativeUpstreams, type NativeUpstreams } from '../test/native-upstreams.js';

/*
 * The console's channel test (GET /api/channel/test/:id) and model fetch (GET /api/channel/fetch_models/:id) on
 * every channel type with a wire format of its own, against each type's mock: a good key passes, a bad key fails
 * with what the upstream said, and the model list comes from the upstream's listing (or the type's defaults where
 * there is no cheap listing).
 */

interface TestAnswer {
  success: boolean;
  message: string;
  time: number;
}

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

const AWS = { accessKeyId: 'AKIAMOCKCHANNELTEST01', secretAccessKey: 'mockSecretForChannelTests000000000000000', region: 'us-west-2' };

describe.each(testDatabases(['sqlite']))('channel tests and model lists of non-OpenAI channels on $name', (database) => {
  let f: RelayFixture;
  let upstreams: NativeUpstreams;
  const account = testServiceAccount('channel-test-project');
  /** A service account the mock does not know: its token requests are refused. */
  const stranger = testServiceAccount('channel-test-project', 'stranger@channel-test-project.iam.gserviceaccount.com');

  const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();
  const testChannel = (id: number, model?: string) => get<TestAnswer>(`/api/channel/test/${id}${model ? `?model=${encodeURIComponent(model)}` : ''}`);
  const fetchModels = (id: number) => get<Envelope<string[]>>(`/api/channel/fetch_models/${id}`);

  /** Good and bad-key channels of one type; refusals must not disable anything the other tests use. */
  async function pair(fields: Record<string, unknown>, badKey: string): Promise<{ good: number; bad: number }> {
    const good = await f.channel({ ...fields, auto_ban: 0 });
    const bad = await f.channel({ ...fields, key: badKey, auto_ban: 0 });
    return { good, bad };
  }

  beforeAll(async () => {
    // Small pages, so the listings are read across several.
    upstreams = await startNativeUpstreams({ account, aws: AWS, modelsPageLimit: 2 });
    f = await startRelay(database);
  });

  afterAll(async () => {
    await f.close();
    await upstreams.close();
  });

  describe('Anthropic Claude (14)', () => {
    let ids: { good: number; bad: number };
    beforeAll(async () => {
      ids = await pair({ ...upstreams.channels.claude, models: 'claude-haiku-4-5' }, 'sk-ant-wrong');
    });

    it('tests the channel with a real call, and reports the upstream’s refusal of a bad key', async () => {
      expect(await testChannel(ids.good)).toMatchObject({ success: true, message: '' });
      const sent = upstreams.claude.requests.at(-1)!;
      expect(sent.path).toBe('/v1/messages');
      expect(sent.json).toMatchObject({ model: 'claude-haiku-4-5', messages: [{ role: 'user' }] });
      expect(await testChannel(ids.bad)).toMatchObject({ success: false, message: 'invalid x-api-key' });
    });

    it('fetches the models from GET /v1/models with x-api-key and anthropic-version', async () => {
      expect(await fetchModels(ids.good)).toMatchObject({ success: true, data: ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-3-5-haiku-20241022'] });
      const sent = upstreams.claude.requests.at(-1)!;
      expect(sent).toMatchObject({ method: 'GET', path: '/v1/models' });
      expect(sent.headers).toMatchObject({ 'x-api-key': CLAUDE_MOCK_KEY, 'anthropic-version': '2023-06-01' });
      const refused = await fetchModels(ids.bad);
      expect(refused).toMatchObject({ success: false, message: '获取模型列表失败：上游返回 HTTP 401' });
      expect(JSON.stringify(refused)).not.toContain('sk-ant-wrong');
    });
  });

  describe('Google Gemini (24)', () => {
    it('tests the channel with a real call, and reports the upstream’s refusal of a bad key', async () => {
      const { good, bad } = await pair({ ...upstreams.channels.gemini, models: 'gemini-2.5-flash' }, 'AIzaWrongKey');
      expect(await testChannel(good)).toMatchObject({ success: true, message: '' });
      expect(upstreams.gemini.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(await testChannel(bad)).toMatchObject({ success: false, message: 'API key not valid. Please pass a valid API key.' });
    });

    it('fetches the models from GET /v1beta/models with x-goog-api-key, without the models/ prefix', async () => {
      const { good, bad } = await pair({ ...upstreams.channels.gemini, models: 'gemini-2.5-flash' }, 'AIzaWrongKey');
      const listed = await fetchModels(good);
      expect(listed.success).toBe(true);
      expect(listed.data.length).toBeGreaterThan(0);
      expect(listed.data.every((id) => !id.startsWith('models/'))).toBe(true);
      expect(upstreams.gemini.requests.at(-1)!.headers['x-goog-api-key']).toBe(GEMINI_MOCK_KEY);
      const refused = await fetchModels(bad);
      expect(refused.success).toBe(false);
      expect(refused.message.startsWith('获取模型列表失败')).toBe(true);
    });
  });

  describe('AWS Bedrock Claude (33)', () => {
    let ids: { good: number; bad: number };
    beforeAll(async () => {
      ids = await pair(
        { ...upstreams.channels.bedrock, models: 'claude-3-haiku-20240307' },
        `${AWS.accessKeyId}|wrongSecretForChannelTests00000000000000|${AWS.region}`,
      );
    });

    it('tests the channel with a signed call, and reports a signature Bedrock refuses', async () => {
      expect(await testChannel(ids.good)).toMatchObject({ success: true, message: '' });
      expect(upstreams.bedrock.requests.at(-1)!.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
      const refused = await testChannel(ids.bad);
      expect(refused.success).toBe(false);
      expect(refused.message).toMatch(/^The request signature we calculated does not match/);
    });

    it('answers the type’s default models, without calling the upstream', async () => {
      const calls = upstreams.bedrock.requests.length;
      expect(await fetchModels(ids.good)).toMatchObject({ success: true, data: [...defaultModels(33)] });
      expect(upstreams.bedrock.requests.length).toBe(calls);
    });
  });

  describe('Vertex AI (41)', () => {
    let ids: { good: number; bad: number };
    beforeAll(async () => {
      const fields = { ...upstreams.channels.vertex, models: 'gemini-2.5-flash,claude-sonnet-4-20250514' };
      ids = await pair(fields, stranger.key(`${upstreams.vertex.url}/token`));
    });

    it.each([
      ['gemini-2.5-flash', '/publishers/google/models/gemini-2.5-flash:generateContent'],
      ['claude-sonnet-4-20250514', '/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict'],
    ])('tests %s with a real call through the service account’s access token', async (model, path) => {
      expect(await testChannel(ids.good, model)).toMatchObject({ success: true, message: '' });
      const sent = upstreams.vertex.requests.at(-1)!;
      expect(sent.path).toBe(`/v1/projects/${account.projectId}/locations/us-east5${path}`);
      expect(sent.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
    });

    it('reports a service account Google refuses a token to', async () => {
      const refused = await testChannel(ids.bad);
      expect(refused.success).toBe(false);
      // Google's OAuth error code; its description may quote the request, so it is not shown.
      expect(refused.message).toBe('Vertex AI 获取访问令牌失败：HTTP 400 invalid_grant');
      expect(refused.message).not.toContain('PRIVATE KEY');
    });

    it('answers the type’s default models, without calling the upstream', async () => {
      const calls = upstreams.vertex.requests.length;
      expect(await fetchModels(ids.good)).toMatchObject({ success: true, data: [...defaultModels(41)] });
      expect(upstreams.vertex.requests.length).toBe(calls);
    });
  });

  describe('Cohere (34)', () => {
    let ids: { good: number; bad: number };
    beforeAll(async () => {
      ids = await pair({ ...upstreams.channels.cohere, models: 'command-r' }, 'co-wrong-key');
    });

    it('tests the channel with a real call, and reports the upstream’s refusal of a bad key', async () => {
      expect(await testChannel(ids.good)).toMatchObject({ success: true, message: '' });
      expect(upstreams.cohere.requests.at(-1)!).toMatchObject({ path: '/v2/chat', json: { model: 'command-r' } });
      expect(await testChannel(ids.bad)).toMatchObject({ success: false, message: 'invalid api token' });
    });

    it('fetches the models from GET /v1/models, following next_page_token', async () => {
      const before = upstreams.cohere.requests.length;
      expect(await fetchModels(ids.good)).toMatchObject({
        success: true,
        data: ['command-a-03-2025', 'command-r-plus-08-2024', 'command-r7b-12-2024', 'embed-multilingual-v3.0', 'rerank-v3.5'],
      });
      const pages = upstreams.cohere.requests.slice(before);
      expect(pages).toHaveLength(3);
      expect(pages.every((r) => r.method === 'GET' && r.path.startsWith('/v1/models?') && r.headers.authorization === `Bearer ${upstreams.cohere.key}`)).toBe(true);
      expect(await fetchModels(ids.bad)).toMatchObject({ success: false, message: '获取模型列表失败：上游返回 HTTP 401' });
    });
  });

  describe('Zhipu GLM v4 (26) and ChatGLM v3 (16)', () => {
    let v4: { good: number; bad: number };
    let v3: { good: number; bad: number };
    beforeAll(async () => {
      v4 = await pair({ ...upstreams.channels.zhipu, models: 'glm-4-flash,embedding-3' }, 'zp-mock-id.wrong-secret');
      v3 = await pair({ ...upstreams.channels.zhipuV3, models: 'chatglm_turbo' }, 'zp-mock-id.wrong-secret');
    });

    it('tests each with a real call under a token made from the key, and reports a token Zhipu refuses', async () => {
      expect(await testChannel(v4.good)).toMatchObject({ success: true, message: '' });
      expect(upstreams.zhipu.requests.at(-1)!).toMatchObject({ path: '/api/paas/v4/chat/completions', json: { model: 'glm-4-flash', max_tokens: 10 } });
      expect(await testChannel(v4.good, 'embedding-3')).toMatchObject({ success: true, message: '' });
      expect(upstreams.zhipu.requests.at(-1)!).toMatchObject({ path: '/api/paas/v4/embeddings', json: { model: 'embedding-3', input: 'hello world' } });
      expect(await testChannel(v3.good)).toMatchObject({ success: true, message: '' });
      expect(upstreams.zhipu.requests.at(-1)!.path).toBe('/api/paas/v3/model-api/chatglm_turbo/invoke');
      const refused = 'Authorization Token非法，请确认Authorization Token正确传递。';
      expect(await testChannel(v4.bad)).toMatchObject({ success: false, message: refused });
      // v3 refuses in a 200 body: the test fails all the same.
      expect(await testChannel(v3.bad)).toMatchObject({ success: false, message: refused });
    });

    it('answers the type’s default models, without calling the upstream', async () => {
      const calls = upstreams.zhipu.requests.length;
      expect(await fetchModels(v4.good)).toMatchObject({ success: true, data: [...defaultModels(26)] });
      expect(await fetchModels(v3.good)).toMatchObject({ success: true, data: [...defaultModels(16)] });
      expect(upstreams.zhipu.requests.length).toBe(calls);
    });
  });

  describe('Baidu ERNIE (15)', () => {
    let ids: { good: number; bad: number };
    beforeAll(async () => {
      ids = await pair({ ...upstreams.channels.baidu, models: 'ERNIE-Speed-128K,Embedding-V1' }, 'bd-mock-api-key|wrong-secret');
    });

    it('tests the channel with a real call under an exchanged access token, chat and embeddings', async () => {
      expect(await testChannel(ids.good)).toMatchObject({ success: true, message: '' });
      const sent = upstreams.baidu.requests.at(-1)!;
      expect(sent.path).toMatch(/^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/ernie-speed-128k\?access_token=24\./);
      expect(sent.json).toEqual({ messages: [{ role: 'user', content: 'hi' }], max_output_tokens: 10 });
      expect(await testChannel(ids.good, 'Embedding-V1')).toMatchObject({ success: true, message: '' });
      expect(upstreams.baidu.requests.at(-1)!.json).toEqual({ input: ['hello world'] });
    });

    it('reports a key Baidu refuses at the token exchange, and an error Qianfan puts in a 200 answer', async () => {
      expect(await testChannel(ids.bad)).toMatchObject({ success: false, message: '百度文心获取 access_token 失败：HTTP 401 invalid_client' });
      // An endpoint Qianfan does not serve answers error 3 with HTTP 200: the test fails all the same.
      expect(await testChannel(ids.good, 'ERNIE-No-Such-Model')).toMatchObject({ success: false, message: 'Unsupported openapi method' });
    });

    it('answers the type’s default models, without calling the upstream', async () => {
      const calls = upstreams.baidu.requests.length;
      expect(await fetchModels(ids.good)).toMatchObject({ success: true, data: [...defaultModels(15)] });
      expect(upstreams.baidu.requests.length).toBe(calls);
    });
  });

  describe('Cloudflare Workers AI (39)', () => {
    let ids: { good: number; bad: number };
    let noAccount: number;
    beforeAll(async () => {
      const fields = { ...upstreams.channels.cloudflare, models: '@cf/meta/llama-3.1-8b-instruct' };
      ids = await pair(fields, 'cf-wrong-token');
      noAccount = await f.channel({ ...fields, other: '', auto_ban: 0 });
    });

    it('tests the channel with a real call, and reports the upstream’s refusal of a bad key', async () => {
      expect(await testChannel(ids.good)).toMatchObject({ success: true, message: '' });
      expect(upstreams.cloudflare.requests.at(-1)!.path).toBe(`/client/v4/accounts/${upstreams.cloudflare.accountId}/ai/v1/chat/completions`);
      expect(await testChannel(ids.bad)).toMatchObject({ success: false, message: 'Authentication error' });
    });

    it('fetches the models from the account’s model search, page by page', async () => {
      const before = upstreams.cloudflare.requests.length;
      expect(await fetchModels(ids.good)).toMatchObject({
        success: true,
        data: [
          '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
          '@cf/meta/llama-3.1-8b-instruct',
          '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b',
          '@cf/baai/bge-m3',
          '@cf/qwen/qwen2.5-coder-32b-instruct',
        ],
      });
      const pages = upstreams.cloudflare.requests.slice(before);
      expect(pages.map((r) => new URL(r.path, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '3']);
      expect(pages[0].path).toMatch(new RegExp(`^/client/v4/accounts/${upstreams.cloudflare.accountId}/ai/models/search\\?`));
      expect(await fetchModels(ids.bad)).toMatchObject({ success: false, message: '获取模型列表失败：上游返回 HTTP 401' });
    });

    it('asks for the account id when the channel has none', async () => {
      const answer = await fetchModels(noAccount);
      expect(answer.success).toBe(false);
      expect(answer.message).toContain('Account ID');
    });
  });
});
