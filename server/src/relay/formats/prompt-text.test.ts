import { describe, expect, it } from 'vitest';
import type { ClientCall, ClientFormat, Mode } from '../types.js';
import { clientFormat } from './index.js';
import { visitArguments, visitJson } from './prompt-text.js';

/** The texts a format's promptTexts visits in a body, in order. */
function texts(format: ClientFormat, mode: Mode, json: Record<string, unknown>): string[] {
  const call: ClientCall = { format, mode, model: 'm', stream: false, json, clientWantsStreamUsage: false, maxTokens: 0 };
  const seen: string[] = [];
  clientFormat(format).promptTexts(call, (text) => seen.push(text));
  return seen;
}

const collected = (walk: (visit: (t: string) => void) => void) => {
  const seen: string[] = [];
  walk((t) => seen.push(t));
  return seen;
};

const image = { type: 'image_url', image_url: { url: 'https://example.com/NOT-TEXT.png' } };

describe('free-form JSON and tool-call arguments', () => {
  it('visits every string value and key in body order, numbers and booleans skipped', () => {
    expect(collected((v) => visitJson({ type: 'object', properties: { city: { type: 'string', enum: ['a', 'b'] } }, n: 1, ok: true, none: null }, v))).toEqual([
      'type', 'object', 'properties', 'city', 'type', 'string', 'enum', 'a', 'b', 'n', 'ok', 'none',
    ]);
    expect(collected((v) => visitJson(undefined, v))).toEqual([]);
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(collected((v) => visitJson(deep, v))).toEqual(['bottom']);
  });

  it('reads arguments as written, or decoded when they hold escapes (an escape neither hides nor makes a word)', () => {
    expect(collected((v) => visitArguments('{"q":"weather"}', v))).toEqual(['{"q":"weather"}']);
    expect(collected((v) => visitArguments('{"q":"\\u0074est","r":"\\nsfw"}', v))).toEqual(['q', 'test', 'r', '\nsfw']);
    expect(collected((v) => visitArguments('{"broken\\', v))).toEqual(['{"broken\\']);
    expect(collected((v) => visitArguments({ q: 'object args' }, v))).toEqual(['q', 'object args']);
  });
});

describe('prompt texts of each client format', () => {
  it('OpenAI chat: every role, text and refusal parts, tool calls, tool and function definitions, schema, prediction', () => {
    const body = {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'developer', content: [{ type: 'text', text: 'dev' }] },
        { role: 'user', content: [{ type: 'text', text: 'u1' }, image, { type: 'input_audio', input_audio: { data: 'NOT-TEXT', format: 'wav' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'NOT-TEXT', type: 'function', function: { name: 'fn', arguments: '{"city":"Paris"}' } }] },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }], function_call: { name: 'legacy', arguments: '{}' } },
        { role: 'assistant', tool_calls: [{ id: 'c2', type: 'custom', custom: { name: 'cx', input: 'raw input' } }] },
        { role: 'tool', tool_call_id: 'NOT-TEXT', content: 'tool out' },
        { role: 'assistant', content: 'a1' },
      ],
      tools: [{ type: 'function', function: { name: 'fn', description: 'finds weather' } }],
      functions: [{ name: 'old', description: 'old style' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
      prediction: { type: 'content', content: 'predicted' },
      model: 'NOT-TEXT',
      user: 'NOT-TEXT',
      stop: ['NOT-TEXT'],
    };
    expect(texts('openai', 'chat', body)).toEqual([
      'sys', 'dev', 'u1', 'fn', '{"city":"Paris"}', 'no', 'legacy', '{}', 'cx', 'raw input', 'tool out', 'a1',
      'type', 'function', 'function', 'name', 'fn', 'description', 'finds weather',
      'name', 'old', 'description', 'old style',
      'type', 'json_schema', 'json_schema', 'name', 'answer', 'schema', 'type', 'object',
      'predicted',
    ]);
  });

  it('OpenAI completions, embeddings, moderations, images, speech, rerank: every text input, token ids skipped', () => {
    expect(texts('openai', 'completions', { prompt: 'p', suffix: 's' })).toEqual(['p', 's']);
    expect(texts('openai', 'completions', { prompt: ['p1', 'p2'] })).toEqual(['p1', 'p2']);
    expect(texts('openai', 'completions', { prompt: [1, 2, 3] })).toEqual([]);
    expect(texts('openai', 'embeddings', { input: ['e1', [1, 2], 'e2'] })).toEqual(['e1', 'e2']);
    expect(texts('openai', 'moderations', { input: [{ type: 'text', text: 'm1' }, image] })).toEqual(['m1']);
    expect(texts('openai', 'images', { prompt: 'draw', size: '1024x1024' })).toEqual(['draw']);
    expect(texts('openai', 'speech', { input: 'say', instructions: 'calmly', voice: 'alloy' })).toEqual(['say', 'calmly']);
    expect(texts('openai', 'rerank', { query: 'q', documents: ['d1', { text: 'd2' }] })).toEqual(['q', 'd1', 'd2']);
  });

  it('OpenAI transcriptions and translations: the prompt field of the form', () => {
    const form = new FormData();
    form.set('model', 'whisper-1');
    form.set('prompt', 'spelling hints');
    form.set('file', new Blob(['NOT-TEXT']), 'a.wav');
    for (const mode of ['transcriptions', 'translations'] as const) {
      const call: ClientCall = { format: 'openai', mode, model: 'whisper-1', stream: false, form, clientWantsStreamUsage: false, maxTokens: 0 };
      expect(collected((v) => clientFormat('openai').promptTexts(call, v))).toEqual(['spelling hints']);
    }
  });

  it('Claude: system, text blocks, tool use inputs, tool results, documents, tool definitions, output format', () => {
    const body = {
      system: [{ type: 'text', text: 'sys' }],
      messages: [
        { role: 'user', content: 'u1' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'NOT-TEXT', signature: 's' }, { type: 'text', text: 'a1' }, { type: 'tool_use', id: 'NOT-TEXT', name: 'look', input: { x: 'arg' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'r1' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'NOT-TEXT' } }] },
            { type: 'tool_result', tool_use_id: 't', content: 'r2' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/NOT-TEXT.png' } },
            { type: 'document', title: 'doc', source: { type: 'text', media_type: 'text/plain', data: 'doc body' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'NOT-TEXT' } },
            { type: 'text', text: 'u2' },
          ],
        },
      ],
      tools: [{ name: 'look', description: 'looks', input_schema: { type: 'object' } }],
      output_config: { format: { type: 'json_schema', schema: { title: 'out' } } },
    };
    expect(texts('claude', 'chat', body)).toEqual([
      'sys', 'u1', 'a1', 'look', 'x', 'arg', 'r1', 'r2', 'doc', 'doc body', 'u2',
      'name', 'look', 'description', 'looks', 'input_schema', 'type', 'object',
      'type', 'json_schema', 'schema', 'title', 'out',
    ]);
    expect(texts('claude', 'chat', { system: 'plain', messages: [] })).toEqual(['plain']);
  });

  it('Gemini: system instruction (either spelling), text, function calls and responses, code, tools, response schema', () => {
    const body = {
      systemInstruction: { parts: [{ text: 'sys' }] },
      contents: [
        { role: 'user', parts: [{ text: 'u1' }, { inlineData: { mimeType: 'image/png', data: 'NOT-TEXT' } }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: { x: 'arg' } } }, { text: 'm1' }, { executableCode: { language: 'PYTHON', code: 'print(1)' } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { out: 'res' } } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'f', description: 'does f' }] }],
      generationConfig: { responseSchema: { type: 'STRING', description: 'answer' }, temperature: 0.5 },
    };
    expect(texts('gemini', 'chat', body)).toEqual([
      'sys', 'u1', 'name', 'f', 'args', 'x', 'arg', 'm1', 'print(1)', 'name', 'f', 'response', 'out', 'res', '1',
      'functionDeclarations', 'name', 'f', 'description', 'does f',
      'type', 'STRING', 'description', 'answer',
    ]);
    const proto = { system_instruction: { parts: [{ text: 'proto' }] }, contents: [{ parts: [{ function_call: { name: 'g', args: { k: 'v' } } }] }] };
    expect(texts('gemini', 'chat', proto)).toEqual(['proto', 'name', 'g', 'args', 'k', 'v']);
    expect(texts('gemini', 'embeddings', { content: { parts: [{ text: 'e1' }] }, title: 'T' })).toEqual(['T', 'e1']);
    expect(texts('gemini', 'embeddings', { requests: [{ content: { parts: [{ text: 'e1' }] } }, { content: { parts: [{ text: 'e2' }] } }] })).toEqual(['e1', 'e2']);
  });

  it('Responses: instructions, input, calls and their outputs, tools, text format, prompt variables; reasoning skipped', () => {
    expect(texts('responses', 'chat', { instructions: 'ins', input: 'just text' })).toEqual(['ins', 'just text']);
    const input = [
      { role: 'user', content: 'u1' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'u2' }, { type: 'input_image', image_url: 'https://example.com/NOT-TEXT.png' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a1', annotations: [] }] },
      { type: 'function_call', call_id: 'NOT-TEXT', name: 'fn', arguments: '{"a":1}' },
      { type: 'function_call_output', call_id: 'NOT-TEXT', output: 'out' },
      { type: 'custom_tool_call', call_id: 'NOT-TEXT', name: 'cx', input: 'free' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'NOT-TEXT' }] },
      { type: 'item_reference', id: 'NOT-TEXT' },
    ];
    const body = {
      input,
      tools: [{ type: 'function', name: 'fn', description: 'd' }],
      text: { format: { type: 'json_schema', name: 'n' } },
      prompt: { id: 'NOT-TEXT', variables: { who: 'you' } },
    };
    expect(texts('responses', 'chat', body)).toEqual([
      'u1', 'u2', 'a1', 'fn', '{"a":1}', 'out', 'cx', 'free',
      'type', 'function', 'name', 'fn', 'description', 'd',
      'type', 'json_schema', 'name', 'n',
      'who', 'you',
    ]);
  });

  it('walks nothing in shapes it does not know', () => {
    expect(texts('openai', 'chat', { messages: 'x' })).toEqual([]);
    expect(texts('openai', 'chat', { messages: [null, 1, { content: 5 }, { content: [null, 7, { text: 3 }] }] })).toEqual([]);
    expect(texts('claude', 'chat', { messages: [{ content: { type: 'text', text: 'one block' } }] })).toEqual(['one block']);
    expect(texts('gemini', 'chat', { contents: [{ parts: { text: 'single part' } }] })).toEqual(['single part']);
  });
});
