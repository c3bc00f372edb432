import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { billing } from '../test/billing.js';
import { DEFAULT_CHUNKS, MOCK_USAGE, startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/* The official openai SDK against Switchyard, relaying to a local server that speaks OpenAI's wire format. */

const MODELS = 'gpt-4o,gpt-4o-mini,gpt-3.5-turbo-instruct,text-embedding-3-small,text-moderation-stable,dall-e-3,tts-1,whisper-1,bge-reranker-v2-m3';

describe.each(testDatabases())('OpenAI endpoints on $name', (database) => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  let key: string;
  const { quotaOf, lastLog } = billing(() => f);

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(database);
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'gpt-3.5-turbo-instruct': 0.75, 'text-embedding-3-small': 0.01, 'text-moderation-stable': 0.1, 'tts-1': 7.5, 'whisper-1': 15, 'bge-reranker-v2-m3': 0.1 }));
    await f.channel({ base_url: mock.url, key: mock.key, models: MODELS });
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it('relays a chat completion and bills it by the upstream usage', async () => {
    await f.flush();
    const before = await quotaOf();
    const res = await f.client(key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.choices[0].message.content).toBe(DEFAULT_CHUNKS.join(''));
    expect(res.usage?.prompt_tokens).toBe(MOCK_USAGE.prompt_tokens);
    await f.flush();
    const expected = Math.round((11 + 7 * 4) * 1.25);
    expect(before - (await quotaOf())).toBe(expected);
    const log = await lastLog();
    expect(log).toMatchObject({ model_name: 'gpt-4o', quota: expected, prompt_tokens: 11, completion_tokens: 7, is_stream: 0, type: 2 });
    expect(JSON.parse(log.other)).toMatchObject({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, admin_info: { use_channel: [expect.any(Number)] } });
  });

  it('streams a chat completion, asking the upstream for usage without passing it to a client that did not ask', async () => {
    const stream = await f.client(key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe(DEFAULT_CHUNKS.join(''));
    expect(sawUsage).toBe(false);
    expect((mock.requests.at(-1)!.json!.stream_options as { include_usage: boolean }).include_usage).toBe(true);
    await f.flush();
    expect(await lastLog()).toMatchObject({ quota: Math.round((11 + 7 * 4) * 1.25), is_stream: 1, completion_tokens: 7 });
  });

  it('passes the usage chunk through to a client that asked for it', async () => {
    const stream = await f.client(key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage = null;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7 });
  });

  it('gives a client that asked for stream usage a usage chunk counted here, before [DONE], when the upstream sends none', async () => {
    mock.queue.push({ omitUsage: true });
    const res = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there' }], stream: true, stream_options: { include_usage: true } }),
    });
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const usageChunk = JSON.parse(events.at(-2)!.slice('data: '.length)) as { id: string; object: string; choices: unknown[]; usage: { prompt_tokens: number; completion_tokens: number } };
    const first = JSON.parse(events[0].slice('data: '.length)) as { id: string };
    expect(usageChunk).toMatchObject({ id: first.id, object: 'chat.completion.chunk', choices: [] });
    await f.flush();
    const log = await lastLog();
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: log.prompt_tokens, completion_tokens: log.completion_tokens });
    expect(log.completion_tokens).toBeGreaterThan(3);
  });

  it('counts tokens itself when the upstream reports no usage', async () => {
    mock.queue.push({ omitUsage: true });
    await f.client(key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there' }] });
    await f.flush();
    const log = await lastLog();
    expect(log.completion_tokens).toBeGreaterThan(3);
    expect(log.prompt_tokens).toBeGreaterThan(3);
    expect(log.content).toContain('本地计算');
  });

  it('relays legacy completions', async () => {
    const res = await f.client(key).completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'say hi' });
    expect(res.choices[0].text).toBe(DEFAULT_CHUNKS.join(''));
  });

  it('relays embeddings', async () => {
    const res = await f.client(key).embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' });
    expect(res.data).toHaveLength(2);
    expect(res.data[0].embedding).toEqual([0.1, -0.2, 0.3]);
  });

  it('relays embeddings on the engine-style path, the model taken from the path', async () => {
    const res = await fetch(`${f.baseUrl}/v1/engines/text-embedding-3-small/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'a' }),
    });
    expect(res.status).toBe(200);
    expect(mock.requests.at(-1)!.json!.model).toBe('text-embedding-3-small');
    await f.flush();
    expect(await lastLog()).toMatchObject({ model_name: 'text-embedding-3-small' });
  });

  it('answers OpenAI’s legacy billing calls with the key’s balance', async () => {
    const get = async (path: string, k: string) => {
      const res = await fetch(`${f.baseUrl}${path}`, { headers: { authorization: `Bearer ${k}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, number | string | boolean>;
    };
    // An unlimited key reports the established gateway's figure; a limited one what it has left plus what it spent.
    expect(await get('/dashboard/billing/subscription', key)).toMatchObject({ object: 'billing_subscription', hard_limit_usd: 100_000_000 });
    const limited = await f.token({ unlimited_quota: false, remain_quota: 1_000_000, expired_time: 4102444800 });
    await f.client(limited.key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    await f.flush();
    const spent = Math.round((11 + 7 * 4) * 1.25);
    const sub = await get('/v1/dashboard/billing/subscription', limited.key);
    expect(sub).toMatchObject({ has_payment_method: true, access_until: 4102444800 });
    expect(sub.hard_limit_usd).toBeCloseTo(1_000_000 / 500_000, 9);
    expect((await get('/v1/dashboard/billing/usage', limited.key)).total_usage).toBeCloseTo((spent / 500_000) * 100, 9);
    // Without token stats the figures are the owner's.
    await f.setOption('DisplayTokenStatEnabled', 'false');
    try {
      const root = await f.t.app.ctx.db.kysely.selectFrom('users').select(['quota', 'used_quota']).where('username', '=', 'root').executeTakeFirstOrThrow();
      expect((await get('/dashboard/billing/subscription', limited.key)).hard_limit_usd).toBeCloseTo((root.quota + root.used_quota) / 500_000, 6);
      expect((await get('/dashboard/billing/usage', limited.key)).total_usage).toBeCloseTo((root.used_quota / 500_000) * 100, 6);
    } finally {
      await f.setOption('DisplayTokenStatEnabled', 'true');
    }
    expect((await fetch(`${f.baseUrl}/dashboard/billing/usage`)).status).toBe(401);
  });

  it('relays moderations', async () => {
    const res = await f.client(key).moderations.create({ input: 'hello' });
    expect(res.results[0].flagged).toBe(false);
  });

  it('relays image generation and bills it per image at the fixed price', async () => {
    await f.flush();
    const before = await quotaOf();
    const res = await f.client(key).images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 1, size: '1024x1024' });
    expect(res.data?.[0].url).toContain('mock.png');
    await f.flush();
    expect(before - (await quotaOf())).toBe(0.04 * 500000);
  });

  it('relays speech as audio bytes', async () => {
    const res = await f.client(key).audio.speech.create({ model: 'tts-1', input: 'hello world', voice: 'alloy' });
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('ID3mock-mp3-bytes');
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
  });

  it('relays a multipart transcription', async () => {
    const file = await toFile(Buffer.from('RIFF....WAVEfmt fake audio'), 'a.wav', { type: 'audio/wav' });
    const res = await f.client(key).audio.transcriptions.create({ model: 'whisper-1', file });
    expect(res.text).toBe('hello from the mock transcription');
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.body.toString('latin1')).toContain('fake audio');
  });

  it('bills a transcription on the length of its audio: a minute is 1,000 prompt tokens, seconds rounded up', async () => {
    // 90.5 s of 8 kHz, 8-bit mono PCM in a WAV file.
    const seconds = 90.5;
    const data = Buffer.alloc(Math.round(seconds * 8000), 0x80);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + data.length, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16); // fmt chunk size
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(1, 22); // mono
    header.writeUInt32LE(8000, 24); // sample rate
    header.writeUInt32LE(8000, 28); // byte rate
    header.writeUInt16LE(1, 32); // block align
    header.writeUInt16LE(8, 34); // bits per sample
    header.write('data', 36);
    header.writeUInt32LE(data.length, 40);
    const file = await toFile(Buffer.concat([header, data]), 'speech.wav', { type: 'audio/wav' });
    await f.client(key).audio.transcriptions.create({ model: 'whisper-1', file });
    await f.flush();
    const tokens = Math.round((91 / 60) * 1000);
    expect(await lastLog()).toMatchObject({ model_name: 'whisper-1', prompt_tokens: tokens, completion_tokens: 0, quota: tokens * 15 });
  });

  it('relays rerank', async () => {
    const res = await fetch(`${f.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bge-reranker-v2-m3', query: 'q', documents: ['a', 'b'] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(2);
  });

  it('lists the models the token may use', async () => {
    const page = await f.client(key).models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toContain('gpt-4o');
    expect(ids).toContain('whisper-1');
    const one = await f.client(key).models.retrieve('gpt-4o');
    expect(one.id).toBe('gpt-4o');
    await expect(f.client(key).models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 });
  });
});
