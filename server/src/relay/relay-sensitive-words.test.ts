import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { setPrices } from '../test/billing.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/*
 * The sensitive-word check of prompts (CheckSensitiveEnabled + CheckSensitiveOnPromptEnabled, list SensitiveWords),
 * in every client format and every kind of text a call sends upstream (messages, system prompts, tool definitions,
 * tool calls' arguments and results, schemas, image prompts, speech input, rerank queries and documents, a
 * transcription's prompt), streamed and not, in any letter case, full width or joined by zero-width characters: a
 * prompt with a listed word is refused with 400 sensitive_words_detected in the caller's format, before anything is
 * reserved, sent upstream, charged or logged.
 */

const CHAT = 'sw-chat';
const INSTRUCT = 'sw-instruct';
const EMBED = 'sw-embed';
const MODERATION = 'text-moderation-stable';
const IMAGE = 'dall-e-3';
const SPEECH = 'tts-1';
const WHISPER = 'whisper-1';
const RERANK = 'bge-reranker-v2-m3';
const WORD = 'test_sensitive';

/** Spellings of the default word the check must see through (the matcher ignores case, width and zero-width characters). */
const SPELLINGS = [
  ['mixed case', 'TEST_Sensitive'],
  ['full width', 'ｔｅｓｔ＿ｓｅｎｓｉｔｉｖｅ'],
  ['zero-width joined', 't\u200be\u200bs\u200bt\u200c_\u200dsensitive'],
  ['full width, zero width and mixed case at once', 'Ｔ\u200bEST_ｓＥ\u2060nsitive'],
] as const;

type Format = 'openai' | 'claude' | 'gemini' | 'responses';

interface Case {
  name: string;
  format: Format;
  path: string;
  body: Record<string, unknown>;
  /** A multipart call (audio uploads): the form's text fields, sent with a small audio file. */
  form?: Record<string, string>;
}

/** Each client format's places a prompt's text can be, the listed word (in some spelling) in one of them. */
function cases(word: string): Case[] {
  const said = `please ${word} now`;
  const openai = (name: string, path: string, body: Record<string, unknown>): Case => ({ name, format: 'openai', path, body });
  const chat = (name: string, body: Record<string, unknown>): Case => openai(`chat: ${name}`, '/v1/chat/completions', { model: CHAT, messages: [{ role: 'user', content: 'hi' }], ...body });
  const claude = (name: string, body: Record<string, unknown>): Case => ({ name, format: 'claude', path: '/v1/messages', body: { model: CHAT, max_tokens: 64, ...body } });
  const gemini = (name: string, action: string, body: Record<string, unknown>, model = CHAT): Case => ({ name, format: 'gemini', path: `/v1beta/models/${model}:${action}`, body });
  const responses = (name: string, body: Record<string, unknown>): Case => ({ name, format: 'responses', path: '/v1/responses', body: { model: CHAT, ...body } });
  const userText = [{ role: 'user', parts: [{ text: 'hello' }] }];
  // The word with its first letter written as a JSON escape inside a tool call's arguments string.
  const escapedArguments = JSON.stringify({ q: said }).replace(word[0], `\\u${word.charCodeAt(0).toString(16).padStart(4, '0')}`);
  expect(escapedArguments).not.toContain(word);
  const toolCall = (args: string) => [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: args } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ];
  const tool = (description: string, properties: Record<string, unknown> = {}) => [{ type: 'function', function: { name: 'lookup', description, parameters: { type: 'object', properties } } }];
  const claudeTurn = (result: unknown) => [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: result }] },
  ];
  const list: Case[] = [
    openai('chat: user message', '/v1/chat/completions', { model: CHAT, messages: [{ role: 'user', content: said }] }),
    openai('chat: system message', '/v1/chat/completions', { model: CHAT, messages: [{ role: 'system', content: said }, { role: 'user', content: 'hi' }] }),
    openai('chat: text part beside an image', '/v1/chat/completions', {
      model: CHAT,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }, { type: 'text', text: said }] }],
    }),
    openai('chat: earlier assistant turn', '/v1/chat/completions', {
      model: CHAT,
      messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: said }, { role: 'user', content: 'go on' }],
    }),
    chat('tool description', { tools: tool(said) }),
    chat('tool parameter name', { tools: tool('finds things', { [word]: { type: 'string' } }) }),
    chat('tool call arguments', { messages: toolCall(JSON.stringify({ q: said })), tools: tool('finds things') }),
    chat('tool call arguments with an escape', { messages: toolCall(escapedArguments), tools: tool('finds things') }),
    chat('tool result', { messages: [...toolCall('{}').slice(0, 2), { role: 'tool', tool_call_id: 'call_1', content: said }], tools: tool('finds things') }),
    chat('structured-output schema', { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', description: said } } } }),
    openai('completions: prompt string', '/v1/completions', { model: INSTRUCT, prompt: said }),
    openai('completions: prompt list', '/v1/completions', { model: INSTRUCT, prompt: ['fine', said] }),
    openai('completions: suffix', '/v1/completions', { model: INSTRUCT, prompt: 'fine', suffix: said }),
    openai('embeddings: input list', '/v1/embeddings', { model: EMBED, input: ['fine', said] }),
    openai('moderations: input', '/v1/moderations', { input: said }),
    openai('moderations: text part', '/v1/moderations', { model: MODERATION, input: [{ type: 'text', text: said }] }),
    openai('images: prompt', '/v1/images/generations', { model: IMAGE, prompt: said }),
    openai('speech: input', '/v1/audio/speech', { model: SPEECH, input: said, voice: 'alloy' }),
    openai('speech: instructions', '/v1/audio/speech', { model: SPEECH, input: 'hello', voice: 'alloy', instructions: said }),
    openai('rerank: query', '/v1/rerank', { model: RERANK, query: said, documents: ['a', 'b'] }),
    openai('rerank: document', '/v1/rerank', { model: RERANK, query: 'q', documents: ['a', { text: said }] }),
    { name: 'transcriptions: prompt', format: 'openai', path: '/v1/audio/transcriptions', body: {}, form: { model: WHISPER, prompt: said } },
    { name: 'translations: prompt', format: 'openai', path: '/v1/audio/translations', body: {}, form: { model: WHISPER, prompt: said } },
    claude('claude: user message', { messages: [{ role: 'user', content: said }] }),
    claude('claude: system string', { system: said, messages: [{ role: 'user', content: 'hi' }] }),
    claude('claude: system blocks', { system: [{ type: 'text', text: said }], messages: [{ role: 'user', content: 'hi' }] }),
    claude('claude: text block', { messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: said }] }] }),
    claude('claude: tool definition', { messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'lookup', description: said, input_schema: { type: 'object', properties: {} } }] }),
    claude('claude: tool_use input', {
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: said } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    }),
    claude('claude: tool_result string', { messages: claudeTurn(said) }),
    claude('claude: tool_result text block', { messages: claudeTurn([{ type: 'text', text: said }]) }),
    claude('claude: text document', { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: said } }, { type: 'text', text: 'sum up' }] }] }),
    gemini('gemini: text part', 'generateContent', { contents: [{ role: 'user', parts: [{ text: said }] }] }),
    gemini('gemini: system instruction', 'generateContent', { systemInstruction: { parts: [{ text: said }] }, contents: userText }),
    gemini('gemini: system_instruction (proto name)', 'generateContent', { system_instruction: { parts: [{ text: said }] }, contents: userText }),
    gemini('gemini: function declaration', 'generateContent', { contents: userText, tools: [{ functionDeclarations: [{ name: 'lookup', description: said, parameters: { type: 'OBJECT', properties: {} } }] }] }),
    gemini('gemini: functionCall args', 'generateContent', {
      contents: [...userText, { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: said } } }] }, { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { r: 'ok' } } }] }],
    }),
    gemini('gemini: function_call args (proto name)', 'generateContent', {
      contents: [...userText, { role: 'model', parts: [{ function_call: { name: 'lookup', args: { q: said } } }] }, { role: 'user', parts: [{ function_response: { name: 'lookup', response: { r: 'ok' } } }] }],
    }),
    gemini('gemini: functionResponse', 'generateContent', {
      contents: [...userText, { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } } }] }, { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { r: said } } }] }],
    }),
    gemini('gemini: embedContent', 'embedContent', { content: { parts: [{ text: said }] } }, EMBED),
    gemini('gemini: batchEmbedContents', 'batchEmbedContents', { requests: [{ model: `models/${EMBED}`, content: { parts: [{ text: said }] } }] }, EMBED),
    responses('responses: input string', { input: said }),
    responses('responses: instructions', { instructions: said, input: 'hi' }),
    responses('responses: input_text part', { input: [{ role: 'user', content: [{ type: 'input_text', text: said }] }] }),
    responses('responses: message content string', { input: [{ type: 'message', role: 'user', content: said }] }),
    responses('responses: tool definition', { input: 'hi', tools: [{ type: 'function', name: 'lookup', description: said, parameters: { type: 'object', properties: {} } }] }),
    responses('responses: function_call arguments', {
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: JSON.stringify({ q: said }) },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    }),
    responses('responses: function_call_output', {
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: said },
      ],
    }),
    responses('responses: text format schema', { input: 'hi', text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', description: said } } } }),
  ];
  return list;
}

/** The same call streamed, where the format streams. */
function streamed(c: Case): Case | null {
  if (c.format === 'gemini') {
    return c.path.endsWith(':generateContent') ? { ...c, name: `${c.name} (stream)`, path: c.path.replace(':generateContent', ':streamGenerateContent?alt=sse') } : null;
  }
  if (c.form || ['/v1/embeddings', '/v1/moderations', '/v1/images/generations', '/v1/audio/speech', '/v1/rerank'].includes(c.path)) return null;
  return { ...c, name: `${c.name} (stream)`, body: { ...c.body, stream: true } };
}

const allCases = (word: string) => cases(word).flatMap((c) => [c, streamed(c)].filter((x): x is Case => x !== null));

function headersOf(format: Format, key: string): Record<string, string> {
  const json = { 'content-type': 'application/json' };
  if (format === 'claude') return { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' };
  if (format === 'gemini') return { ...json, 'x-goog-api-key': key };
  return { ...json, authorization: `Bearer ${key}` };
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([Buffer.from('RIFF....WAVEfmt fake audio')], { type: 'audio/wav' }), 'a.wav');
  return form;
}

/** What each format's error body says for the refusal. */
function expectRefusalBody(format: Format, body: unknown): void {
  if (format === 'claude') {
    expect(body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'sensitive words detected' } });
  } else if (format === 'gemini') {
    expect(body).toMatchObject({ error: { code: 400, message: 'sensitive words detected', status: 'INVALID_ARGUMENT' } });
  } else {
    expect(body).toMatchObject({ error: { message: 'sensitive words detected', type: 'invalid_request_error', code: 'sensitive_words_detected' } });
  }
}

describe.each(testDatabases(['sqlite']))('sensitive words in prompts on $name', (database) => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  /** A token that could not pay for any call's estimate: a refusal that comes before the reservation is still a 400. */
  let poor: { id: number; key: string };
  let rich: { id: number; key: string };

  /** Everything money and logs touch for root and the tokens: a refused call changes none of it. */
  async function books() {
    await f.flush();
    const db = f.t.app.ctx.db.kysely;
    const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', f.root.userId).executeTakeFirstOrThrow();
    const tokens = await db.selectFrom('tokens').select(['id', 'remain_quota', 'used_quota']).where('id', 'in', [poor.id, rich.id]).orderBy('id').execute();
    const logs = await db.selectFrom('logs').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return { user, tokens, logs: Number(logs.n), upstreamCalls: mock.requests.length };
  }

  async function call(c: Case, key: string) {
    const res = c.form
      ? await fetch(`${f.baseUrl}${c.path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: formOf(c.form) })
      : await fetch(`${f.baseUrl}${c.path}`, { method: 'POST', headers: headersOf(c.format, key), body: JSON.stringify(c.body) });
    const text = await res.text();
    return { status: res.status, text };
  }

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(database);
    const price = { ratio: 1, completion: 1 };
    const models = [CHAT, INSTRUCT, EMBED, MODERATION, IMAGE, SPEECH, WHISPER, RERANK];
    await setPrices(f, Object.fromEntries(models.map((m) => [m, price])));
    await f.channel({ type: 8, base_url: mock.url, key: mock.key, models: models.join(','), auto_ban: 0 });
    poor = await f.token({ unlimited_quota: false, remain_quota: 1 });
    rich = await f.token({ unlimited_quota: false, remain_quota: 1_000_000_000 });
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await f.setOption('CheckSensitiveEnabled', 'true');
    await f.setOption('CheckSensitiveOnPromptEnabled', 'true');
    await f.setOption('SensitiveWords', WORD);
  });

  it('is on by default with the word test_sensitive', () => {
    const { options } = f.t.app.ctx;
    expect(options.get('CheckSensitiveEnabled')).toBe(true);
    expect(options.get('CheckSensitiveOnPromptEnabled')).toBe(true);
    expect(options.get('SensitiveWords')).toBe(WORD);
  });

  it.each(allCases('TEST_Sensitive').map((c) => [c.name, c] as const))('refuses %s with 400 in the caller format, uncharged and unlogged', async (_name, c) => {
    const before = await books();
    const res = await call(c, poor.key);
    expect(res.status, res.text).toBe(400);
    expectRefusalBody(c.format, JSON.parse(res.text));
    expect(await books()).toEqual(before);
  });

  it.each(SPELLINGS)('refuses the word written %s, in every format and field', async (_name, spelling) => {
    const before = await books();
    for (const c of allCases(spelling)) {
      const res = await call(c, poor.key);
      expect(res.status, `${c.name}: ${res.text}`).toBe(400);
      expectRefusalBody(c.format, JSON.parse(res.text));
    }
    expect(await books()).toEqual(before);
  });

  it('refuses the playground the same way', async () => {
    const before = await books();
    const res = await fetch(`${f.baseUrl}/pg/chat/completions`, {
      method: 'POST',
      headers: { ...f.root.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: CHAT, messages: [{ role: 'user', content: `x${WORD}x` }], stream: true }),
    });
    expect(res.status).toBe(400);
    expectRefusalBody('openai', await res.json());
    expect(await books()).toEqual(before);
  });

  it('logs the words found as a warning, and does not name them to the caller', async () => {
    const warn = vi.spyOn(f.t.app.ctx.log, 'warn');
    await f.setOption('SensitiveWords', `${WORD}\n违禁词\nunused`);
    const c: Case = { name: 'two words', format: 'openai', path: '/v1/chat/completions', body: { model: CHAT, messages: [{ role: 'user', content: `违禁词 and ${WORD}` }] } };
    const res = await call(c, rich.key);
    expect(res.status).toBe(400);
    expect(res.text).not.toContain(WORD);
    expect(res.text).not.toContain('违禁词');
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0] as unknown as [Record<string, unknown>, string];
    expect(message).toBe(`user sensitive words detected: 违禁词, ${WORD}`);
    expect(fields).toMatchObject({ userId: f.root.userId, tokenId: rich.id, model: CHAT });
  });

  it('reads text only: image URLs, tool call ids, model-side fields and token-id prompts are not checked', async () => {
    const clean: Case[] = [
      {
        name: 'image url',
        format: 'openai',
        path: '/v1/chat/completions',
        body: { model: CHAT, messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: `https://example.com/${WORD}.png` } }] }] },
      },
      {
        name: 'tool call id',
        format: 'openai',
        path: '/v1/chat/completions',
        body: {
          model: CHAT,
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: null, tool_calls: [{ id: WORD, type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: WORD, content: 'ok' },
          ],
          tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
        },
      },
      { name: 'user and stop', format: 'openai', path: '/v1/chat/completions', body: { model: CHAT, messages: [{ role: 'user', content: 'hi' }], user: WORD, stop: [WORD] } },
      { name: 'token ids', format: 'openai', path: '/v1/embeddings', body: { model: EMBED, input: [[1, 2, 3]] } },
      { name: 'speech voice', format: 'openai', path: '/v1/audio/speech', body: { model: SPEECH, input: 'hello', voice: WORD } },
    ];
    for (const c of clean) {
      const res = await call(c, rich.key);
      expect(res.status, `${c.name}: ${res.text}`).toBe(200);
    }
  });

  it.each([
    ['CheckSensitiveOnPromptEnabled', 'CheckSensitiveOnPromptEnabled'],
    ['CheckSensitiveEnabled', 'CheckSensitiveEnabled'],
  ] as const)('lets every such call through, charged as usual, when %s is off', async (_name, key) => {
    await f.setOption(key, 'false');
    for (const c of allCases(WORD)) {
      const before = await books();
      const res = await call(c, rich.key);
      expect(res.status, `${c.name}: ${res.text}`).toBe(200);
      const after = await books();
      expect(after.upstreamCalls, c.name).toBe(before.upstreamCalls + 1);
      expect(after.logs, c.name).toBe(before.logs + 1);
      expect(after.user.quota, c.name).toBeLessThan(before.user.quota);
    }
  });

  it('checks against the list as changed: a removed word passes, an added one is refused', async () => {
    const said: Case = { name: 'chat', format: 'openai', path: '/v1/chat/completions', body: { model: CHAT, messages: [{ role: 'user', content: `${WORD} 新词` }] } };
    expect((await call(said, rich.key)).status).toBe(400);
    await f.setOption('SensitiveWords', 'something else');
    expect((await call(said, rich.key)).status).toBe(200);
    await f.setOption('SensitiveWords', 'something else\n新词');
    expect((await call(said, rich.key)).status).toBe(400);
    await f.setOption('SensitiveWords', '');
    expect((await call(said, rich.key)).status).toBe(200);
  });
});
