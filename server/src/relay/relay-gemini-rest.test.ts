import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { claudeAnswer, claudeEvents, chatAnswer } from '../test/mocks/scripted.js';
import { SCRIPTED_MODELS as M, startScriptedRelay, type ScriptedRelay } from '../test/scripted-relay.js';

/*
 * Gemini's REST API as Google's own curl examples call it: proto field names in snake_case. On channels of other
 * formats every one of them must mean what its camelCase form means.
 */

const SNAKE_BODY = {
  system_instruction: { parts: [{ text: 'You are terse.' }] },
  contents: [
    {
      role: 'user',
      parts: [{ text: 'What is on this picture?' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }],
    },
  ],
  tools: [
    {
      function_declarations: [
        { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'OBJECT', properties: { city_name: { type: 'STRING' } }, required: ['city_name'] } },
      ],
    },
  ],
  tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['get_weather'] } },
  generation_config: { max_output_tokens: 300, temperature: 0.2, stop_sequences: ['END'] },
};

describe.each(testDatabases(['sqlite']))('Gemini REST bodies with snake_case field names on $name', (database) => {
  let r: ScriptedRelay;

  async function post(model: string, action: string, body: unknown) {
    const res = await fetch(`${r.f.baseUrl}/v1beta/models/${model}:${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': r.key },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  }

  beforeAll(async () => {
    r = await startScriptedRelay(database);
  });

  afterAll(async () => {
    await r.close();
  });

  it('gives a Claude channel the system prompt, the image, the tools, the forced tool choice and the generation settings', async () => {
    r.claude.next.push({ json: claudeAnswer([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city_name: 'Paris' } }], { stop: 'tool_use' }) });
    const res = await post(M.claude, 'generateContent', SNAKE_BODY);
    expect(res.status).toBe(200);
    expect(r.claude.last()).toMatchObject({
      system: 'You are terse.',
      max_tokens: 300,
      temperature: 0.2,
      stop_sequences: ['END'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on this picture?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city_name: { type: 'string' } }, required: ['city_name'] } }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    expect(JSON.parse(res.text).candidates[0].content.parts).toEqual([{ functionCall: { name: 'get_weather', args: { city_name: 'Paris' } } }]);
  });

  it('streams on a Claude channel with the same conversion', async () => {
    r.claude.next.push({ sse: claudeEvents([{ type: 'text', text: 'A cat.' }]) });
    const res = await post(M.claude, 'streamGenerateContent?alt=sse', SNAKE_BODY);
    expect(res.status).toBe(200);
    expect(r.claude.last()).toMatchObject({ system: 'You are terse.', stream: true, tool_choice: { type: 'tool', name: 'get_weather' } });
  });

  it('gives an OpenAI channel the system message, the image part, the tools and the settings', async () => {
    r.openai.next.push({ json: chatAnswer({ content: 'A cat.' }) });
    const res = await post(M.gpt, 'generateContent', SNAKE_BODY);
    expect(res.status).toBe(200);
    expect(r.openai.last()).toMatchObject({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'What is on this picture?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city_name: { type: 'string' } } } } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_tokens: 300,
      temperature: 0.2,
      stop: ['END'],
    });
    expect(JSON.parse(res.text).candidates[0].content.parts).toEqual([{ text: 'A cat.' }]);
  });

  it('keeps a function call’s arguments and a function response’s keys exactly as sent', async () => {
    r.openai.next.push({ json: chatAnswer({ content: 'It is 21 degrees.' }) });
    const res = await post(M.gpt, 'generateContent', {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ function_call: { name: 'get_weather', args: { city_name: 'Paris' } } }] },
        { role: 'user', parts: [{ function_response: { name: 'get_weather', response: { temp_c: 21 } } }] },
      ],
    });
    expect(res.status).toBe(200);
    const messages = r.openai.last().messages as Array<Record<string, unknown>>;
    expect(messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'get_weather', arguments: '{"city_name":"Paris"}' } }] });
    expect(messages[2]).toMatchObject({ role: 'tool', content: '{"temp_c":21}' });
  });
});
