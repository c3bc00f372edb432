import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSES_RETENTION_JOB } from '../jobs/responses-retention.js';
import { testDatabases, type TestDatabase } from '../test/databases.js';
import { needs, testRedisUrl } from '../test/services.js';
import { billing, setPrices, type Price } from '../test/billing.js';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { GEMINI_MOCK_KEY, startGeminiMock, type GeminiMock } from '../test/mocks/gemini.js';
import { startResponsesMock, type ResponsesMock } from '../test/mocks/openai-responses.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { sharedRedisUrl } from '../test/shared-redis.js';

/*
 * Conversations continued through the Responses API on channels that do not keep state (Claude, Gemini): the
 * gateway keeps the Responses it converts and resolves previous_response_id and item_reference itself, answers
 * GET / DELETE /v1/responses/{id} and /input_items, per user, for a bounded time and size. Driven by the clients
 * that depend on it — the Vercel AI SDK's default OpenAI provider and the official openai SDK — on every database,
 * and on Redis when SWITCHYARD_TEST_REDIS is set.
 */

const CLAUDE = 'claude-haiku-4-5';
const CLAUDE_TOOL = 'claude-mock-tool-use';
const CLAUDE_NO_USAGE = 'claude-mock-no-usage';
const GEMINI = 'gemini-2.5-flash';
const GEMINI_TOOL = 'gemini-mock-function-call';
/** OpenAI channel: the Responses API passed through. */
const OPENAI = 'gpt-4.1-mini';

const CLAUDE_TEXT = 'Hello from the Claude mock.';
const GEMINI_TEXT = 'Hello from the Gemini mock.';

const PRICES: Record<string, Price> = Object.fromEntries(
  [CLAUDE, CLAUDE_TOOL, CLAUDE_NO_USAGE, GEMINI, GEMINI_TOOL, OPENAI].map((m) => [m, { ratio: 1, completion: 2 }]),
);

const MINTED_RESPONSE = /^resp_sy[0-9a-f]{48}$/;

interface Variant {
  name: string;
  database: TestDatabase;
  env: Record<string, string>;
}

const variants: Variant[] = testDatabases().map((database) => ({ name: database.name, database, env: {} }));
if (needs(['redis'], 'the Responses state kept in Redis')) {
  variants.push({ name: 'redis', database: testDatabases(['sqlite'])[0], env: { REDIS_CONN_STRING: testRedisUrl() } });
}

type Messages = Array<{ role: string; content: unknown }>;

describe.each(variants)('Responses kept by the gateway ($name)', (variant) => {
  let f: RelayFixture;
  let claude: ClaudeMock;
  let gemini: GeminiMock;
  let openai: ResponsesMock;
  let client: OpenAI;
  let key: string;
  /** Bodies the clients put on the wire for /v1/responses, in order. */
  const sent: Array<Record<string, unknown>> = [];
  const recordingFetch = (url: string | URL | Request, init?: RequestInit) => {
    if (typeof init?.body === 'string' && String(url).endsWith('/responses')) sent.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(url, init);
  };
  const { lastLog, settled } = billing(() => f);

  const keeper = () => f.t.app.ctx.responses;
  const kept = new Set<string>();
  const keepers = new Set<number>();
  const claudeMessages = () => claude.requests.at(-1)!.json!.messages as Messages;
  const geminiContents = () => gemini.requests.at(-1)!.json!.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  const textsOf = (messages: Messages) =>
    messages.map((m) => [m.role, typeof m.content === 'string' ? m.content : (m.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? p.type).join('|')]);

  /** A user of their own, with quota and a key. */
  async function otherUser(name: string): Promise<OpenAI> {
    const session = await f.t.user(name);
    await f.t.app.ctx.db.kysely.updateTable('users').set({ quota: 100_000_000 }).where('id', '=', session.userId).execute();
    const created = await f.t.call(session, { method: 'POST', url: '/api/token/', payload: { name: 'k', unlimited_quota: true, expired_time: -1, remain_quota: 0 } });
    return f.client(`sk-${(created.json() as { data: { key: string } }).data.key}`);
  }

  async function apiError(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    return err as InstanceType<typeof OpenAI.APIError>;
  }

  beforeAll(async () => {
    [claude, gemini, openai] = await Promise.all([startClaudeMock(), startGeminiMock(), startResponsesMock()]);
    f = await startRelay(variant.database, variant.env);
    await setPrices(f, PRICES);
    await f.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: [CLAUDE, CLAUDE_TOOL, CLAUDE_NO_USAGE].join(','), auto_ban: 0 });
    await f.channel({ type: 24, base_url: gemini.url, key: GEMINI_MOCK_KEY, models: [GEMINI, GEMINI_TOOL].join(','), auto_ban: 0 });
    await f.channel({ type: 1, base_url: openai.url, key: openai.key, models: OPENAI, auto_ban: 0 });
    ({ key } = await f.token());
    // Every response the gateway keeps in this suite, so a shared Redis can be cleaned of exactly those.
    const keep = keeper().keep.bind(keeper());
    keeper().keep = (k) => {
      kept.add(k.id);
      keepers.add(k.userId);
      keep(k);
    };
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0, timeout: 20_000, fetch: recordingFetch });
  });

  afterAll(async () => {
    await f.close();
    await Promise.all([claude, gemini, openai].map((m) => m.close()));
    if (variant.name === 'redis') await forgetInRedis();
  });

  describe('the official openai SDK', () => {
    it('continues a conversation on a Claude channel with previous_response_id: the upstream gets the earlier turns', async () => {
      const first = await client.responses.create({ model: CLAUDE, input: 'My name is Ada.', instructions: 'Be brief.' });
      expect(first.id).toMatch(MINTED_RESPONSE);
      expect(first).toMatchObject({ store: true, previous_response_id: null, output_text: CLAUDE_TEXT });
      expect(first.output[0].id).toBe(`msg_${first.id.slice(5)}_0`);

      const second = await client.responses.create({ model: CLAUDE, input: 'What is my name?', previous_response_id: first.id });
      expect(second.previous_response_id).toBe(first.id);
      expect(second.output_text).toBe(CLAUDE_TEXT);
      expect(textsOf(claudeMessages())).toEqual([
        ['user', 'My name is Ada.'],
        ['assistant', CLAUDE_TEXT],
        ['user', 'What is my name?'],
      ]);
      // Instructions belong to the response that gave them (OpenAI does not carry them over either).
      expect(claude.requests.at(-1)!.json!.system).toBeUndefined();
      expect(sent.at(-1)).toMatchObject({ previous_response_id: first.id, input: 'What is my name?' });

      const third = await client.responses.create({ model: CLAUDE, input: 'And again?', previous_response_id: second.id });
      expect(textsOf(claudeMessages()).map(([role]) => role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(third.previous_response_id).toBe(second.id);
    });

    it('streams a continued conversation on a Gemini channel', async () => {
      const first = await client.responses.stream({ model: GEMINI, input: 'My name is Ada.' }).finalResponse();
      expect(first.id).toMatch(MINTED_RESPONSE);
      const second = await client.responses.stream({ model: GEMINI, input: 'What is my name?', previous_response_id: first.id }).finalResponse();
      expect(second.output_text).toBe(GEMINI_TEXT);
      expect(geminiContents().map((c) => [c.role, c.parts.map((p) => p.text).join('')])).toEqual([
        ['user', 'My name is Ada.'],
        ['model', GEMINI_TEXT],
        ['user', 'What is my name?'],
      ]);
      // What the SDK's stream helper adds of its own (parsed) aside, the kept response is the streamed one.
      const unparsed = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'parsed' || k === 'output_parsed' ? undefined : x))) as unknown;
      expect(await client.responses.retrieve(second.id)).toEqual(unparsed(second));
    });

    it('resolves item_reference items to the items they name', async () => {
      const first = await client.responses.create({ model: GEMINI, input: 'My name is Ada.' });
      await client.responses.create({
        model: CLAUDE,
        input: [{ role: 'user', content: 'My name is Ada.' }, { type: 'item_reference', id: first.output[0].id! }, { role: 'user', content: 'What is my name?' }],
        store: false,
      });
      expect(textsOf(claudeMessages())).toEqual([
        ['user', 'My name is Ada.'],
        ['assistant', GEMINI_TEXT],
        ['user', 'What is my name?'],
      ]);
    });

    it('retrieves a response, lists its input items and deletes it, in OpenAI’s shapes', async () => {
      const first = await client.responses.create({ model: CLAUDE, input: 'My name is Ada.' });
      const second = await client.responses.create({ model: CLAUDE, input: [{ role: 'user', content: 'What is my name?' }], previous_response_id: first.id });
      expect(await client.responses.retrieve(second.id)).toEqual(second);

      const asc = await client.responses.inputItems.list(second.id, { order: 'asc' });
      expect(asc.data.map((i) => [i.type, (i as { role?: string }).role, i.id])).toEqual([
        ['message', 'user', `msg_${first.id.slice(5)}_i0`],
        ['message', 'assistant', first.output[0].id],
        ['message', 'user', `msg_${second.id.slice(5)}_i2`],
      ]);
      expect(asc.data[0]).toMatchObject({ content: [{ type: 'input_text', text: 'My name is Ada.' }] });
      const desc = await client.responses.inputItems.list(second.id);
      expect(desc.data.map((i) => i.id)).toEqual(asc.data.map((i) => i.id).reverse());
      const paged: string[] = [];
      for await (const item of client.responses.inputItems.list(second.id, { order: 'asc', limit: 1 })) paged.push(item.id!);
      expect(paged).toEqual(asc.data.map((i) => i.id));
      // Input items are kept with ids too, and can be referred to like output items.
      await client.responses.create({ model: GEMINI, input: [{ type: 'item_reference', id: asc.data[0].id! }], store: false });
      expect(geminiContents().map((c) => [c.role, c.parts.map((p) => p.text).join('')])).toEqual([['user', 'My name is Ada.']]);

      const raw = await fetch(`${f.baseUrl}/v1/responses/${second.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
      expect(raw.status).toBe(200);
      expect(await raw.json()).toEqual({ id: second.id, object: 'response', deleted: true });
      const gone = await apiError(client.responses.retrieve(second.id));
      expect(gone.status).toBe(404);
      expect(gone.error).toMatchObject({ type: 'invalid_request_error', code: 'response_not_found' });
      expect((await apiError(client.responses.delete(second.id))).status).toBe(404);
      const continued = await apiError(client.responses.create({ model: CLAUDE, input: 'Hi', previous_response_id: second.id }));
      expect(continued.status).toBe(400);
      expect(continued.error).toMatchObject({ code: 'previous_response_not_found' });
      // The delete answer through the SDK, and the first response untouched by it.
      await client.responses.delete(first.id);
      expect((await apiError(client.responses.retrieve(first.id))).status).toBe(404);
    });

    it('keeps nothing with store: false, and answers a later reference as OpenAI does', async () => {
      const r = await client.responses.create({ model: CLAUDE, input: 'Forget me.', store: false });
      expect(r).toMatchObject({ store: false });
      await keeper().flush();
      expect((await apiError(client.responses.retrieve(r.id))).status).toBe(404);
      const prev = await apiError(client.responses.create({ model: CLAUDE, input: 'Hi', previous_response_id: r.id }));
      expect(prev.status).toBe(400);
      expect(prev.error).toMatchObject({ type: 'invalid_request_error', code: 'previous_response_not_found', message: expect.stringContaining(r.id) });
      const item = await apiError(client.responses.create({ model: CLAUDE, input: [{ type: 'item_reference', id: r.output[0].id! }] }));
      expect(item.status).toBe(404);
      expect(item.error).toMatchObject({ code: 'item_not_found', message: expect.stringContaining('store 为 false') });
    });

    it('never lets one user read, continue or delete another user’s response (404, as if absent)', async () => {
      const mine = await client.responses.create({ model: CLAUDE, input: 'Secret: 42.' });
      const alice = await otherUser('alice');
      for (const call of [() => alice.responses.retrieve(mine.id), () => alice.responses.inputItems.list(mine.id), () => alice.responses.delete(mine.id)]) {
        expect((await apiError(call())).status).toBe(404);
      }
      const prev = await apiError(alice.responses.create({ model: CLAUDE, input: 'What is the secret?', previous_response_id: mine.id }));
      expect([prev.status, prev.error]).toEqual([400, expect.objectContaining({ code: 'previous_response_not_found' })]);
      const item = await apiError(alice.responses.create({ model: GEMINI, input: [{ type: 'item_reference', id: mine.output[0].id! }] }));
      expect(item.status).toBe(404);
      // Still there for its owner, after alice's attempts and after the write.
      await keeper().flush();
      expect((await client.responses.retrieve(mine.id)).output_text).toBe(CLAUDE_TEXT);
      expect((await apiError(alice.responses.retrieve(mine.id))).status).toBe(404);
    });

    it('forgets a response after ResponsesRetentionDays: the retention job deletes it, then it is not found', async () => {
      const r = await client.responses.create({ model: CLAUDE, input: 'Old news.' });
      await keeper().flush();
      await ageResponse(r.id, 31 * 86_400);
      expect((await apiError(client.responses.retrieve(r.id))).status).toBe(404);
      await f.t.app.ctx.jobs.runNow(RESPONSES_RETENTION_JOB);
      if (variant.name !== 'redis') {
        expect(await f.t.app.ctx.db.kysely.selectFrom('responses').select('id').where('id', '=', r.id).executeTakeFirst()).toBeUndefined();
      }
      const prev = await apiError(client.responses.create({ model: CLAUDE, input: 'Hi', previous_response_id: r.id }));
      expect(prev.status).toBe(400);
    });

    it('answers a clear 400 for a response too large to keep, and for one evicted by the per-user limit', async () => {
      try {
        await f.setOption('ResponsesMaxResponseMB', '0.001');
        const big = await client.responses.create({ model: CLAUDE, input: 'x'.repeat(2000) });
        const tooLarge = await apiError(client.responses.create({ model: CLAUDE, input: 'Hi', previous_response_id: big.id }));
        expect([tooLarge.status, tooLarge.error]).toEqual([400, expect.objectContaining({ code: 'response_too_large', message: expect.stringContaining('0.001 MB') })]);
        await keeper().flush();
        expect((await apiError(client.responses.retrieve(big.id))).error).toMatchObject({ code: 'response_too_large' });

        await f.setOption('ResponsesMaxResponseMB', '8');
        await f.setOption('ResponsesMaxUserMB', '0.0001');
        const evicted = await client.responses.create({ model: GEMINI, input: 'Hello' });
        await keeper().flush();
        const item = await apiError(client.responses.create({ model: CLAUDE, input: [{ type: 'item_reference', id: evicted.output[0].id! }] }));
        expect([item.status, item.error]).toEqual([400, expect.objectContaining({ code: 'response_evicted' })]);
        expect((await apiError(client.responses.inputItems.list(evicted.id))).status).toBe(400);
      } finally {
        await f.setOption('ResponsesMaxResponseMB', '8');
        await f.setOption('ResponsesMaxUserMB', '256');
      }
    });

    it('charges a continued call on the input the upstream received, the earlier turns included', async () => {
      const first = await client.responses.create({ model: CLAUDE_NO_USAGE, input: 'My name is Ada, and I write programs.' });
      await settled();
      const firstPrompt = (await lastLog()).prompt_tokens;
      await client.responses.create({ model: CLAUDE_NO_USAGE, input: 'What is my name?', previous_response_id: first.id });
      await settled();
      const continued = await lastLog();
      await client.responses.create({
        model: CLAUDE_NO_USAGE,
        store: false,
        input: [
          { role: 'user', content: 'My name is Ada, and I write programs.' },
          { role: 'assistant', content: first.output_text },
          { role: 'user', content: 'What is my name?' },
        ],
      });
      await settled();
      const whole = await lastLog();
      expect(continued.content).toContain('上游未返回用量');
      expect(continued.prompt_tokens).toBe(whole.prompt_tokens);
      expect(continued.prompt_tokens).toBeGreaterThan(firstPrompt);
    });
  });

  describe('on an OpenAI channel (the Responses API passed through)', () => {
    it('resolves ids the gateway minted locally and sends the conversation in full', async () => {
      const first = await client.responses.create({ model: CLAUDE, input: 'My name is Ada.' });
      const second = await client.responses.create({ model: OPENAI, input: 'What is my name?', previous_response_id: first.id });
      expect(second.id).not.toMatch(MINTED_RESPONSE);
      const upstream = openai.requests.at(-1)!.json!;
      expect(upstream.previous_response_id).toBeUndefined();
      expect(upstream.input).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'My name is Ada.' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: CLAUDE_TEXT }] },
        { role: 'user', content: 'What is my name?' },
      ]);
      expect(JSON.stringify(upstream)).not.toMatch(/_sy[0-9a-f]{48}/);
    });

    it('passes ids OpenAI minted through untouched, and a converting channel refuses them clearly', async () => {
      const body = { model: OPENAI, input: 'And now?', previous_response_id: 'resp_68a1f0c2d0f481909a3c5e7b1f2d4c6e' };
      await client.responses.create(body);
      expect(openai.requests.at(-1)!.body.toString('utf8')).toBe(JSON.stringify(body));
      const err = await apiError(client.responses.create({ ...body, model: CLAUDE }));
      expect([err.status, err.error]).toEqual([400, expect.objectContaining({ code: 'previous_response_not_found', message: expect.stringContaining('OpenAI 渠道') })]);
    });

    it('leaves an id minted here that it has nothing for to the upstream (a gateway behind this one may know it)', async () => {
      const body = { model: OPENAI, input: 'And now?', previous_response_id: `resp_sy${'0'.repeat(48)}` };
      await client.responses.create(body);
      expect(openai.requests.at(-1)!.body.toString('utf8')).toBe(JSON.stringify(body));
    });
  });

  describe('the Vercel AI SDK (default OpenAI provider: Responses API, stored items referenced)', () => {
    const provider = () => createOpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, fetch: recordingFetch });
    const weather = tool({
      description: 'Weather of a city',
      inputSchema: jsonSchema<{ city: string; unit?: string }>({
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      }),
      execute: async ({ city }) => `18°C and sunny in ${city}`,
    });

    const claudeTexts = () => claudeMessages().flatMap((m) => (typeof m.content === 'string' ? [m.content] : (m.content as Array<{ text?: string }>).map((p) => p.text ?? '')));
    describe.each([
      {
        channel: 'Claude',
        model: CLAUDE,
        toolModel: CLAUDE_TOOL,
        text: CLAUDE_TEXT,
        toolText: "I'll look up the weather in Paris.",
        upstreamTurns: () => claudeMessages().map((m) => m.role),
        upstreamTexts: claudeTexts,
      },
      {
        channel: 'Gemini',
        model: GEMINI,
        toolModel: GEMINI_TOOL,
        text: GEMINI_TEXT,
        toolText: 'Let me check the weather.',
        upstreamTurns: () => geminiContents().map((c) => c.role),
        upstreamTexts: () => geminiContents().flatMap((c) => c.parts.map((p) => String(p.text ?? ''))),
      },
    ])('on a $channel channel', ({ model, toolModel, text, toolText, upstreamTurns, upstreamTexts }) => {
      it('holds a two-turn conversation: the second turn refers to the first answer by item_reference', async () => {
        const first = await generateText({ model: provider()(model), prompt: 'My name is Ada.' });
        expect(first.text).toBe(text);
        const messages: ModelMessage[] = [{ role: 'user', content: 'My name is Ada.' }, ...first.response.messages, { role: 'user', content: 'What is my name?' }];
        const second = await generateText({ model: provider()(model), messages });
        expect(second.text).toBe(text);
        expect(sent.at(-1)!.input).toContainEqual({ type: 'item_reference', id: expect.stringMatching(/^msg_sy/) });
        expect(upstreamTurns()).toEqual(model === GEMINI ? ['user', 'model', 'user'] : ['user', 'assistant', 'user']);
      });

      it('continues with previousResponseId', async () => {
        const first = await generateText({ model: provider()(model), prompt: 'My name is Ada.' });
        const responseId = String(first.providerMetadata?.openai?.responseId);
        expect(responseId).toMatch(MINTED_RESPONSE);
        const second = await generateText({ model: provider()(model), prompt: 'What is my name?', providerOptions: { openai: { previousResponseId: responseId } } });
        expect(second.text).toBe(text);
        expect(sent.at(-1)).toMatchObject({ previous_response_id: responseId });
        expect(upstreamTurns()).toHaveLength(3);
      });

      it('runs a tool-calling conversation over several steps and turns (streamed)', async () => {
        const run = streamText({ model: provider()(toolModel), prompt: 'Weather in Paris?', tools: { get_weather: weather }, stopWhen: stepCountIs(2) });
        const steps = await run.steps;
        expect(steps).toHaveLength(2);
        expect(steps[0].toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Paris', unit: 'celsius' } });
        expect(steps[0].toolResults[0]).toMatchObject({ output: '18°C and sunny in Paris' });
        // Step 2 sent the call and its output, and referred to the step-1 text by its stored id.
        const step2 = sent.at(-1)!.input as Array<Record<string, unknown>>;
        expect(step2.map((i) => i.type ?? 'message')).toEqual(['message', 'item_reference', 'function_call', 'function_call_output']);
        expect(upstreamTurns()).toEqual(model === GEMINI ? ['user', 'model', 'user'] : ['user', 'assistant', 'user']);
        expect(upstreamTexts()).toContain(toolText);

        const history: ModelMessage[] = [{ role: 'user', content: 'Weather in Paris?' }, ...(await run.response).messages, { role: 'user', content: 'Thanks!' }];
        const next = await generateText({ model: provider()(model), messages: history });
        expect(next.text).toBe(text);
        const turn = sent.at(-1)!.input as Array<Record<string, unknown>>;
        expect(turn.filter((i) => i.type === 'item_reference')).toHaveLength(2);
        // user, the two steps (text and call, then the tool's result: with "Thanks!" in the last user turn).
        const assistant = model === GEMINI ? 'model' : 'assistant';
        expect(upstreamTurns()).toEqual(['user', assistant, 'user', assistant, 'user']);
        // The text of both steps reached the upstream only through the references.
        expect(upstreamTexts().filter((t) => t === toolText)).toHaveLength(2);
      });
    });
  });

  async function forgetInRedis(): Promise<void> {
    const redis = new Redis(sharedRedisUrl()!);
    try {
      if (kept.size > 0) await redis.del(...[...kept].map((id) => `switchyard:responses:${id}`));
      for (const userId of keepers) {
        const setKey = `switchyard:responses:user:${userId}`;
        const mine = (await redis.zrange(setKey, 0, -1)).filter((m) => kept.has(m.slice(0, m.indexOf('|'))));
        if (mine.length > 0) await redis.zrem(setKey, ...mine);
      }
    } finally {
      redis.disconnect();
    }
  }

  async function ageResponse(id: string, seconds: number): Promise<void> {
    if (variant.name === 'redis') {
      const redis = new Redis(sharedRedisUrl()!);
      try {
        const created = Number(await redis.hget(`switchyard:responses:${id}`, 'created'));
        await redis.hset(`switchyard:responses:${id}`, 'created', created - seconds);
      } finally {
        redis.disconnect();
      }
      return;
    }
    const db = f.t.app.ctx.db.kysely;
    const row = await db.selectFrom('responses').select('created_at').where('id', '=', id).executeTakeFirstOrThrow();
    await db.updateTable('responses').set({ created_at: Number(row.created_at) - seconds }).where('id', '=', id).execute();
  }
});

describe('Responses kept by the gateway on shutdown', () => {
  it('writes, when the server closes, a response whose write before its answer failed (waiting for a retry)', async () => {
    const claude = await startClaudeMock();
    const f = await startRelay(testDatabases(['sqlite'])[0]);
    try {
      await setPrices(f, PRICES);
      await f.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: CLAUDE, auto_ban: 0 });
      const client = f.client((await f.token()).key);
      // The write made before the answer ends fails once (the database away for a moment): the response waits for
      // its retry, a second later, which only the shutdown comes soon enough to make.
      const backend = (f.t.app.ctx.responses as unknown as { backend: { write(rows: unknown): Promise<unknown> } }).backend;
      const write = backend.write.bind(backend);
      backend.write = async () => {
        backend.write = write;
        throw new Error('database unavailable');
      };
      const r = await client.responses.create({ model: CLAUDE, input: 'Keep me.' });
      expect(f.t.app.ctx.responses.waiting).toBe(1);
      await f.t.app.close();
      const row = await f.t.app.ctx.db.kysely.selectFrom('responses').select(['id', 'state']).where('id', '=', r.id).executeTakeFirst();
      expect(row).toEqual({ id: r.id, state: 1 });
    } finally {
      await f.close();
      await claude.close();
    }
  });
});
