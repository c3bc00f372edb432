import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { chatAnswer, claudeAnswer, claudeEvents, geminiAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';

/*
 * Structured output through channels of another format: what the client asked for reaches the upstream in the
 * upstream's own form, and the answer comes back as the client's SDK expects it (parse() included).
 */

const Person = z.object({ name: z.string(), age: z.number() });
const PERSON_SCHEMA = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'], additionalProperties: false };
const JANE = { name: 'Jane', age: 31 };
const ask = [{ role: 'user' as const, content: 'Extract: Jane, 31' }];

describe.each(testDatabases(['sqlite']))('structured output across formats on $name', (database) => {
  let r: ScriptedRelay;

  beforeAll(async () => {
    r = await startScriptedRelay(database);
  });

  afterAll(async () => {
    await r.close();
  });

  describe('OpenAI clients on a Claude channel', () => {
    it('parse() with a zod schema: output_config.format on a Claude 4.5 model', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: JSON.stringify(JANE) }]) });
      const done = await r.f.client(r.key).chat.completions.parse({ model: M.claude, messages: ask, response_format: zodResponseFormat(Person, 'person') });
      expect(done.choices[0].message.parsed).toEqual(JANE);
      expect(r.claude.last()).toMatchObject({ output_config: { format: { type: 'json_schema', schema: PERSON_SCHEMA } } });
      expect(r.claude.last().tools).toBeUndefined();
    });

    it('parse() with a zod schema: a forced tool on an older model, its input returned as the message', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'tool_use', id: 'toolu_1', name: 'json_response', input: JANE }], { stop: 'tool_use' }) });
      const done = await r.f.client(r.key).chat.completions.parse({ model: M.claudeOld, messages: ask, response_format: zodResponseFormat(Person, 'person') });
      expect(done.choices[0].message.parsed).toEqual(JANE);
      expect(done.choices[0].finish_reason).toBe('stop');
      expect(done.choices[0].message.tool_calls ?? []).toEqual([]);
      expect(r.claude.last()).toMatchObject({ tools: [{ name: 'json_response', input_schema: PERSON_SCHEMA }], tool_choice: { type: 'tool', name: 'json_response' } });
      expect(r.claude.last().output_config).toBeUndefined();
    });

    it('streams the forced tool’s input as the content the SDK parses', async () => {
      r.claude.next.push({ sse: claudeEvents([{ type: 'tool_use', id: 'toolu_1', name: 'json_response', input: JANE }], { stop: 'tool_use' }) });
      const stream = r.f.client(r.key).chat.completions.stream({ model: M.claudeOld, messages: ask, response_format: zodResponseFormat(Person, 'person') });
      const done = await stream.finalChatCompletion();
      expect(done.choices[0].message.parsed).toEqual(JANE);
      expect(done.choices[0].finish_reason).toBe('stop');
    });

    it('json_object: a forced tool whose input is any object', async () => {
      r.claude.next.push({ json: claudeAnswer([{ type: 'tool_use', id: 'toolu_1', name: 'json_response', input: { ok: true } }], { stop: 'tool_use' }) });
      const done = await r.f.client(r.key).chat.completions.create({ model: M.claude, messages: ask, response_format: { type: 'json_object' } });
      expect(JSON.parse(done.choices[0].message.content!)).toEqual({ ok: true });
      expect(r.claude.last()).toMatchObject({ tools: [{ name: 'json_response', input_schema: { type: 'object' } }] });
    });

    it('refuses a schema whose root is not an object with a 400, without calling the upstream', async () => {
      const before = r.claude.requests.length;
      const err = await r.f
        .client(r.key)
        .chat.completions.create({ model: M.claudeOld, messages: ask, response_format: { type: 'json_schema', json_schema: { name: 'list', schema: { type: 'array', items: { type: 'string' } } } } })
        .then(
          () => null,
          (e: unknown) => e as { status: number },
        );
      expect(err?.status).toBe(400);
      expect(r.claude.requests.length).toBe(before);
    });
  });

  it('Responses clients: responses.parse() with text.format on a Claude channel', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: JSON.stringify(JANE) }]) });
    const done = await r.f.client(r.key).responses.parse({ model: M.claude, input: 'Extract: Jane, 31', text: { format: zodTextFormat(Person, 'person') } });
    expect(done.output_parsed).toEqual(JANE);
    expect(r.claude.last()).toMatchObject({ output_config: { format: { type: 'json_schema', schema: PERSON_SCHEMA } } });
  });

  it('Gemini clients: responseSchema with responseMimeType reaches a Claude channel as output_config.format', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'text', text: JSON.stringify(JANE) }]) });
    const ai = new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.f.baseUrl } });
    const resp = await ai.models.generateContent({
      model: M.claude,
      contents: 'Extract: Jane, 31',
      config: { responseMimeType: 'application/json', responseJsonSchema: PERSON_SCHEMA },
    });
    expect(JSON.parse(resp.text!)).toEqual(JANE);
    expect(r.claude.last()).toMatchObject({ output_config: { format: { type: 'json_schema', schema: PERSON_SCHEMA } } });
  });

  it('OpenAI clients on a Gemini channel: parse() sends responseMimeType and responseSchema', async () => {
    r.gemini.next.push({ json: geminiAnswer([{ text: JSON.stringify(JANE) }]) });
    const done = await r.f.client(r.key).chat.completions.parse({ model: M.gemini, messages: ask, response_format: zodResponseFormat(Person, 'person') });
    expect(done.choices[0].message.parsed).toEqual(JANE);
    expect(r.gemini.last()).toMatchObject({
      generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'] } },
    });
  });

  describe('Claude clients sending output_config.format', () => {
    const claudeSdk = () => new Anthropic({ apiKey: r.key, baseURL: r.f.baseUrl, maxRetries: 0 });

    it('reach an OpenAI channel as response_format json_schema', async () => {
      r.openai.next.push({ json: chatAnswer({ content: JSON.stringify(JANE) }) });
      const msg = await claudeSdk().messages.create({ model: M.gpt, max_tokens: 200, messages: ask, output_config: { format: { type: 'json_schema', schema: PERSON_SCHEMA } } });
      expect(msg.content).toEqual([{ type: 'text', text: JSON.stringify(JANE) }]);
      expect(r.openai.last()).toMatchObject({ response_format: { type: 'json_schema', json_schema: { schema: PERSON_SCHEMA, strict: true } } });
    });

    it('reach a Gemini channel as responseMimeType and responseSchema', async () => {
      r.gemini.next.push({ json: geminiAnswer([{ text: JSON.stringify(JANE) }]) });
      await claudeSdk().messages.create({ model: M.gemini, max_tokens: 200, messages: ask, output_config: { format: { type: 'json_schema', schema: PERSON_SCHEMA } } });
      expect(r.gemini.last()).toMatchObject({ generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'object' } } });
    });
  });
});
