import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { EDGE_MODELS as M, startEdgeFixture, VIAS, type EdgeFixture } from '../test/edge-fixture.js';

/*
 * Bodies of the right JSON but the wrong shape are refused at the edge with a 400 in the caller's format that names
 * the field, before any upstream is asked; bodies of the right shape with fields the gateway does not know, or in
 * the spellings providers accept, go through (passthrough channels receive them byte for byte).
 */

const [sqlite] = testDatabases(['sqlite']);

type Format = 'openai' | 'claude' | 'gemini';

interface Case {
  name: string;
  path: string;
  body: unknown;
  /** The field the error names, as the format spells it. */
  field: string;
}

const claudeMessage = (content: unknown) => ({ model: M.claude, max_tokens: 16, messages: [{ role: 'user', content }] });
const claudeCount = (content: unknown) => ({ model: M.claude, messages: [{ role: 'user', content }] });
const chat = (messages: unknown, extra: object = {}) => ({ model: M.openai, messages, ...extra });
const user = (content: unknown) => [{ role: 'user', content }];
const gemini = (contents: unknown, extra: object = {}) => ({ contents, ...extra });
const geminiPath = (action: string) => `/v1beta/models/${M.gemini}:${action}`;
const responses = (input: unknown, extra: object = {}) => ({ model: M.responses, input, ...extra });

/** The cases on /v1/messages and /v1/messages/count_tokens, and their equivalents in every other format. */
const CASES: Record<Format, Case[]> = {
  claude: [
    ['/v1/messages', claudeMessage],
    ['/v1/messages/count_tokens', claudeCount],
  ].flatMap(([path, body]) => {
    const b = body as (content: unknown) => Record<string, unknown>;
    const p = path as string;
    return [
      { name: 'content 123', path: p, body: b(123), field: 'messages.0.content' },
      { name: 'messages [null]', path: p, body: { ...b('x'), messages: [null] }, field: 'messages.0' },
      { name: 'content [null]', path: p, body: b([null]), field: 'messages.0.content.0' },
      { name: 'image source null', path: p, body: b([{ type: 'image', source: null }]), field: 'messages.0.content.0.source' },
      { name: 'tools [null]', path: p, body: { ...b('x'), tools: [null] }, field: 'tools.0' },
      { name: 'tool_use without input', path: p, body: b([{ type: 'tool_use', id: 't1', name: 'f' }]), field: 'messages.0.content.0.input' },
      { name: 'system 5', path: p, body: { ...b('x'), system: 5 }, field: 'system' },
    ];
  }),
  openai: [
    { name: 'content 123', path: '/v1/chat/completions', body: chat(user(123)), field: 'messages[0].content' },
    { name: 'messages [null]', path: '/v1/chat/completions', body: chat([null]), field: 'messages[0]' },
    { name: 'content [null]', path: '/v1/chat/completions', body: chat(user([null])), field: 'messages[0].content[0]' },
    { name: 'image_url null', path: '/v1/chat/completions', body: chat(user([{ type: 'image_url', image_url: null }])), field: 'messages[0].content[0].image_url' },
    { name: 'tools [null]', path: '/v1/chat/completions', body: chat(user('x'), { tools: [null] }), field: 'tools[0]' },
    { name: 'a message without role', path: '/v1/chat/completions', body: chat([{ content: 'x' }]), field: 'messages[0].role' },
    { name: 'tool call without function', path: '/v1/chat/completions', body: chat([{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] }]), field: 'messages[0].tool_calls[0].function' },
    { name: 'temperature "hot"', path: '/v1/chat/completions', body: chat(user('x'), { temperature: 'hot' }), field: 'temperature' },
    { name: 'prompt {}', path: '/v1/completions', body: { model: M.openai, prompt: {} }, field: 'prompt' },
    { name: 'embeddings input [null]', path: '/v1/embeddings', body: { model: M.openai, input: [null] }, field: 'input[0]' },
    { name: 'moderations input 5', path: '/v1/moderations', body: { model: M.openai, input: 5 }, field: 'input' },
    { name: 'images n "two"', path: '/v1/images/generations', body: { model: M.openai, prompt: 'a cat', n: 'two' }, field: 'n' },
    { name: 'images n over 10', path: '/v1/images/generations', body: { model: M.openai, prompt: 'a cat', n: 2147483647 }, field: 'n' },
    { name: 'tool_choice naming no function', path: '/v1/chat/completions', body: chat(user('x'), { tool_choice: { type: 'function' } }), field: 'tool_choice.function' },
    { name: 'speech input []', path: '/v1/audio/speech', body: { model: M.openai, input: ['x'], voice: 'alloy' }, field: 'input' },
    { name: 'rerank documents [null]', path: '/v1/rerank', body: { model: M.openai, query: 'q', documents: [null] }, field: 'documents[0]' },
    { name: 'responses input [null]', path: '/v1/responses', body: responses([null]), field: 'input[0]' },
    { name: 'responses content 123', path: '/v1/responses', body: responses([{ role: 'user', content: 123 }]), field: 'input[0].content' },
    { name: 'responses content [null]', path: '/v1/responses', body: responses([{ role: 'user', content: [null] }]), field: 'input[0].content[0]' },
    { name: 'responses tools [null]', path: '/v1/responses', body: responses('x', { tools: [null] }), field: 'tools[0]' },
    { name: 'responses function_call_output without call_id', path: '/v1/responses', body: responses([{ type: 'function_call_output', output: 'x' }]), field: 'input[0].call_id' },
  ],
  gemini: ['generateContent', 'streamGenerateContent', 'countTokens'].flatMap((action): Case[] => [
    { name: `${action} contents [null]`, path: geminiPath(action), body: gemini([null]), field: 'contents[0]' },
    { name: `${action} parts [null]`, path: geminiPath(action), body: gemini([{ parts: [null] }]), field: 'contents[0].parts[0]' },
    { name: `${action} text 123`, path: geminiPath(action), body: gemini([{ parts: [{ text: 123 }] }]), field: 'contents[0].parts[0].text' },
    { name: `${action} inline_data null`, path: geminiPath(action), body: gemini([{ parts: [{ inline_data: null }] }]), field: 'contents[0].parts[0].inline_data' },
    { name: `${action} tools [null]`, path: geminiPath(action), body: gemini([{ parts: [{ text: 'x' }] }], { tools: [null] }), field: 'tools[0]' },
    { name: `${action} function call without name`, path: geminiPath(action), body: gemini([{ role: 'model', parts: [{ functionCall: { args: {} } }] }]), field: 'contents[0].parts[0].functionCall.name' },
  ]).concat([
    { name: 'generateContent without contents', path: geminiPath('generateContent'), body: {}, field: 'contents' },
    { name: 'embedContent content 5', path: geminiPath('embedContent'), body: { content: 5 }, field: 'content' },
    { name: 'batchEmbedContents requests [null]', path: geminiPath('batchEmbedContents'), body: { requests: [null] }, field: 'requests[0]' },
  ]),
};

function expectFieldError(format: Format, status: number, text: string, field: string): void {
  expect(status).toBe(400);
  const body = JSON.parse(text);
  if (format === 'openai') {
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: field });
    expect(body.error.message).toContain(`'${field}'`);
  } else if (format === 'claude') {
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: `));
  } else {
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toContain(field);
  }
  expect(text).not.toMatch(/Cannot read|is not iterable|undefined|TypeError/);
}

describe('request bodies at the edge', () => {
  let f: EdgeFixture;
  const headers = () => ({ authorization: `Bearer ${f.key}`, 'content-type': 'application/json' });

  beforeAll(async () => {
    f = await startEdgeFixture(sqlite);
  });
  afterAll(async () => {
    await f?.close();
  });

  describe.each(VIAS)('through the %s', (via) => {
    for (const format of ['claude', 'openai', 'gemini'] as const) {
      it.each(CASES[format].map((c) => [c.name, c] as const))(`answers a ${format} body with %s with a 400 naming the field`, async (_name, c) => {
        const calls = f.upstreamCalls();
        const res = await f.send(via, { path: c.path, headers: headers(), body: JSON.stringify(c.body) });
        expectFieldError(format, res.status, res.text, c.field);
        expect(f.upstreamCalls()).toBe(calls);
      });
    }

    it('refuses a tool choice a Claude channel cannot take with a 400 that names it, never JavaScript text', async () => {
      const body = JSON.stringify(chat(user('x'), { model: M.claude, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }));
      const res = await f.send(via, { path: '/v1/chat/completions', headers: headers(), body });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toMatchObject({ code: 'unsupported_tool_choice', message: expect.stringContaining('allowed_tools') });
    });

    it('passes fields it does not know to an OpenAI upstream byte for byte (vendor extensions of chat clients)', async () => {
      const body = JSON.stringify({
        model: M.openai,
        messages: [
          { role: 'system', content: 'be brief', name: 'sys' },
          { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }, { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'ok' },
          { role: 'user', content: 'and?', x_custom: 1 },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }, { type: 'web_search' }],
        tool_choice: 'auto',
        stream_options: null,
        temperature: null,
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
        enable_search: true,
        thinking: { type: 'enabled' },
        extra_body: { google: { thinking_config: {} } },
      });
      const res = await f.send(via, { path: '/v1/chat/completions', headers: headers(), body });
      expect(res.status).toBe(200);
      expect(f.openai.requests.at(-1)!.body.toString()).toBe(body);
    });

    it('passes a Claude body with block types it does not check to the Claude upstream byte for byte', async () => {
      const body = JSON.stringify({
        model: M.claude,
        max_tokens: 64,
        system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'doc' },
              { type: 'search_result', source: 'https://x', title: 't', content: [{ type: 'text', text: 'r' }] },
              { type: 'text', text: 'summarise' },
            ],
          },
        ],
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
        metadata: { user_id: 'u1' },
        anthropic_extension: { a: 1 },
      });
      const res = await f.send(via, { path: '/v1/messages', headers: { ...headers(), 'anthropic-version': '2023-06-01' }, body });
      expect(res.status).toBe(200);
      expect(f.claude.requests.at(-1)!.body.toString()).toBe(body);
    });

    it("takes Gemini REST bodies in snake_case and with single objects for lists, as Google's own examples write them", async () => {
      const body = JSON.stringify({
        system_instruction: { parts: { text: 'You are a cat.' } },
        contents: { role: 'user', parts: { text: 'hello' } },
        generation_config: { max_output_tokens: '64', temperature: 0.5 },
        safety_settings: { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
      });
      const passthrough = await f.send(via, { path: geminiPath('generateContent'), headers: { ...headers(), 'x-goog-api-key': f.key }, body });
      expect(passthrough.status).toBe(200);
      expect(f.gemini.requests.at(-1)!.body.toString()).toBe(body);

      const converted = await f.send(via, { path: `/v1beta/models/${M.geminiOnOpenAI}:generateContent`, headers: headers(), body });
      expect(converted.status).toBe(200);
      expect(JSON.parse(converted.text).candidates[0].content.parts[0].text).toBeTypeOf('string');
      const counted = await f.send(via, { path: `/v1beta/models/${M.gemini}:countTokens`, headers: headers(), body });
      expect(counted.status).toBe(200);
      expect(JSON.parse(counted.text).totalTokens).toBeGreaterThan(0);
    });
  });
});
