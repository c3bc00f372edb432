import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { CHANNEL_STATUS } from '@switchyard/shared';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startDifyMock, type DifyMock } from '../../../test/mocks/dify.js';
import { countTextTokens } from '../../tokenizer.js';

/*
 * The OpenAI SDK and a Claude Messages client through Dify channels (type 37) against the Dify stand-in, where each
 * key names an app answering one fixture case: blocking and streamed answers billed by metadata.usage, an answer
 * without usage counted here, a cut stream and an error event billed for what was delivered, images uploaded as
 * files, workflow progress shown only when the channel's setting asks, refusals not billed at all.
 */

const PRICE: Price = { ratio: 1, completion: 2 };
const MODELS = ['dify', 'dify-no-usage', 'dify-cut', 'dify-stream-error', 'dify-quota', 'dify-progress', 'dify-bad-key', 'dify-revoked'];
const costOf = (model: string, t: Tokens) => costAt(model, t, PRICE);
const ANSWER = 'Hello from the Dify mock.';

describe.each(testDatabases(['sqlite']))('Dify channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: DifyMock;
  let key: string;
  let client: OpenAI;
  let channelId: number;
  const { charged, free } = billing(() => f);
  const lastChat = () => mock.requests.filter((r) => r.path === '/v1/chat-messages').at(-1)!;
  const hi: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hi' },
  ];

  async function streamed(model: string, messages = hi) {
    let text = '';
    let reasoning = '';
    let failure: unknown = null;
    try {
      for await (const chunk of await client.chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } })) {
        const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
        text += delta?.content ?? '';
        reasoning += delta?.reasoning_content ?? '';
      }
    } catch (err) {
      failure = err;
    }
    return { text, reasoning, failure };
  }

  beforeAll(async () => {
    mock = await startDifyMock();
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(MODELS.map((m) => [m, PRICE])));
    const channel = (app: string, model: string, extra: Record<string, unknown> = {}) =>
      f.channel({ type: 37, base_url: mock.url, key: mock.keyFor(app), models: model, auto_ban: 0, ...extra });
    channelId = await channel('default', 'dify');
    await channel('no-usage', 'dify-no-usage');
    await channel('cut', 'dify-cut');
    await channel('stream-error', 'dify-stream-error');
    await channel('quota-exceeded', 'dify-quota');
    await channel('default', 'dify-progress', { setting: JSON.stringify({ show_workflow_events: true }) });
    key = (await f.token()).key;
    client = f.client(key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it('sends the conversation as one blocking query with the app key and bills metadata.usage', async () => {
    let answer!: OpenAI.Chat.ChatCompletion;
    const c = await charged(async () => {
      answer = await client.chat.completions.create({ model: 'dify', messages: hi, user: 'alice', max_tokens: 64 });
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 9 });
    const sent = lastChat();
    expect(sent.headers.authorization).toBe(`Bearer ${mock.keyFor('default')}`);
    expect(sent.json).toEqual({ inputs: {}, query: 'SYSTEM: \nBe brief.\nUSER: \nhi\n', response_mode: 'blocking', user: 'alice', auto_generate_name: false });
    expect(c.spent).toBe(costOf('dify', { prompt: 12, completion: 9 }));
    expect(c.log).toMatchObject({ model_name: 'dify', prompt_tokens: 12, completion_tokens: 9, is_stream: 0 });
  });

  it('streams message events as chunks, hides workflow progress, and bills message_end’s usage', async () => {
    let out!: Awaited<ReturnType<typeof streamed>>;
    const c = await charged(async () => {
      out = await streamed('dify');
    });
    expect(out).toEqual({ text: ANSWER, reasoning: '', failure: null });
    expect(lastChat().json).toMatchObject({ response_mode: 'streaming', user: expect.stringMatching(/^switchyard-/) });
    expect(c.spent).toBe(costOf('dify', { prompt: 12, completion: 9 }));
    expect(c.log).toMatchObject({ prompt_tokens: 12, completion_tokens: 9, is_stream: 1 });
  });

  it('shows workflow and node progress as reasoning when the channel’s setting asks for it', async () => {
    let out!: Awaited<ReturnType<typeof streamed>>;
    const c = await charged(async () => {
      out = await streamed('dify-progress');
    });
    expect(out.text).toBe(ANSWER);
    expect(out.reasoning).toContain('Workflow: dfjasklfjdslag\nNode: 开始\n');
    expect(out.reasoning).toContain('Workflow: dfjasklfjdslag succeeded\n');
    expect(c.spent).toBe(costOf('dify-progress', { prompt: 12, completion: 9 }));
  });

  it('counts an answer Dify reports no usage for, whole and streamed', async () => {
    const completion = countTextTokens(ANSWER, 'dify-no-usage');
    for (const stream of [false, true]) {
      const c = await charged(async () => {
        if (!stream) return client.chat.completions.create({ model: 'dify-no-usage', messages: hi });
        return streamed('dify-no-usage');
      });
      expect(c.log.completion_tokens).toBe(completion);
      expect(c.log.prompt_tokens).toBeGreaterThan(0);
      expect(c.spent).toBe(costOf('dify-no-usage', { prompt: c.log.prompt_tokens, completion }));
    }
  });

  it('charges a stream cut mid-way for what was delivered, and refuses a blocking answer cut half-way for free', async () => {
    let out!: Awaited<ReturnType<typeof streamed>>;
    const c = await charged(async () => {
      out = await streamed('dify-cut');
    });
    expect(out.text).toBe('Hello from the');
    expect(out.failure).not.toBeNull();
    expect(c.log.completion_tokens).toBe(countTextTokens('Hello from the', 'dify-cut'));
    expect(c.spent).toBe(costOf('dify-cut', { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }));
    expect(c.log.content).toContain('上游中断');
    await free(() => expect(client.chat.completions.create({ model: 'dify-cut', messages: hi })).rejects.toMatchObject({ status: 502 }));
  });

  it('ends a stream at Dify’s error event with its message, billing what was delivered', async () => {
    let out!: Awaited<ReturnType<typeof streamed>>;
    const c = await charged(async () => {
      out = await streamed('dify-stream-error');
    });
    expect(out.text).toBe('Hello from the');
    expect(String((out.failure as Error).message)).toContain('Rate limit reached');
    expect(c.log.completion_tokens).toBe(countTextTokens('Hello from the', 'dify-stream-error'));
    // Not streamed, the same app answers the error with HTTP 400.
    await free(() => expect(client.chat.completions.create({ model: 'dify-stream-error', messages: hi })).rejects.toMatchObject({ status: 400, error: { code: 'completion_request_error' } }));
  });

  it('uploads a data: URL image as a file of the app and sends http images as remote_url', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What are these?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
          { type: 'image_url', image_url: { url: 'https://example.test/cat.jpg' } },
        ],
      },
    ];
    const c = await charged(() => client.chat.completions.create({ model: 'dify', messages, user: 'bob' }));
    expect(c.spent).toBe(costOf('dify', { prompt: 12, completion: 9 }));
    const upload = mock.uploads.at(-1)!;
    expect(upload).toMatchObject({ key: mock.keyFor('default'), user: 'bob', mime: 'image/png', name: 'image-1.png' });
    expect(upload.bytes.equals(png)).toBe(true);
    expect(lastChat().json).toMatchObject({
      query: 'USER: \nWhat are these?\n',
      files: [
        { type: 'image', transfer_method: 'local_file', upload_file_id: upload.id },
        { type: 'image', transfer_method: 'remote_url', url: 'https://example.test/cat.jpg' },
      ],
    });
  });

  it('refuses an image Dify will not take, and fields a Dify app cannot honour, for free', async () => {
    const chats = mock.requests.filter((r) => r.path === '/v1/chat-messages').length;
    const svg = [{ role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url: 'data:text/plain;base64,aGk=' } }] }];
    await free(() => expect(client.chat.completions.create({ model: 'dify', messages: svg })).rejects.toMatchObject({ status: 400, error: { code: 'unsupported_file_type' } }));
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } }];
    await free(() => expect(client.chat.completions.create({ model: 'dify', messages: hi, tools })).rejects.toMatchObject({ status: 400 }));
    expect(mock.requests.filter((r) => r.path === '/v1/chat-messages').length).toBe(chats);
  });

  it('serves a Claude Messages client, whole and streamed, billed exactly', async () => {
    const sdk = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0, timeout: 20_000 });
    const params = { model: 'dify', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user' as const, content: 'hi' }] };
    let whole!: Anthropic.Message;
    const c = await charged(async () => {
      whole = await sdk.messages.create(params);
    });
    expect(whole).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 9 } });
    expect(lastChat().json).toMatchObject({ query: 'SYSTEM: \nBe brief.\nUSER: \nhi\n', response_mode: 'blocking' });
    expect(c.spent).toBe(costOf('dify', { prompt: 12, completion: 9 }));

    let final!: Anthropic.Message;
    const s = await charged(async () => {
      final = await sdk.messages.stream(params).finalMessage();
    });
    expect(final.content).toMatchObject([{ type: 'text', text: ANSWER }]);
    expect(s.spent).toBe(costOf('dify', { prompt: 12, completion: 9 }));
  });

  it('treats an app whose provider quota is spent as the channel’s failure, charging nothing', async () => {
    await free(() => expect(client.chat.completions.create({ model: 'dify-quota', messages: hi })).rejects.toMatchObject({ status: 502 }));
  });

  describe('the console', () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();

    it('tests a channel with a blocking call, reports a wrong key in Dify’s words', async () => {
      expect(await get(`/api/channel/test/${channelId}`)).toMatchObject({ success: true, message: '' });
      const bad = await f.channel({ type: 37, base_url: mock.url, key: 'app-unknown', models: 'dify-bad-key', auto_ban: 0 });
      expect(await get(`/api/channel/test/${bad}`)).toMatchObject({ success: false, message: 'Access token is invalid' });
    });

    it('disables a channel whose key Dify refuses, and charges nothing', async () => {
      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      try {
        // A model of its own: the test above left a channel (auto_ban off) serving dify-bad-key, which a call could take.
        const bad = await f.channel({ type: 37, base_url: mock.url, key: 'app-revoked', models: 'dify-revoked', auto_ban: 1 });
        await free(() => expect(client.chat.completions.create({ model: 'dify-revoked', messages: hi })).rejects.toMatchObject({ status: 502 }));
        // The channel is disabled beside the answer: waited for, not slept on.
        await expect
          .poll(async () => (await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', bad).executeTakeFirstOrThrow()).status)
          .toBe(CHANNEL_STATUS.AUTO_DISABLED);
      } finally {
        await f.setOption('AutomaticDisableChannelEnabled', 'false');
      }
    });
  });
});
