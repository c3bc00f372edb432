import { describe, expect, it } from 'vitest';
import type { ClientCall, ClientFormat, Mode } from '../types.js';
import { clientFormat } from './index.js';

/** The texts a format's promptTexts visits in a body, in order. */
function texts(format: ClientFormat, mode: Mode, json: Record<string, unknown>): string[] {
  const call: ClientCall = { format, mode, model: 'm', stream: false, json, clientWantsStreamUsage: false, maxTokens: 0 };
  const seen: string[] = [];
  clientFormat(format).promptTexts(call, (text) => seen.push(text));
  return seen;
}

const image = { type: 'image_url', image_url: { url: 'https://example.com/NOT-TEXT.png' } };

describe('prompt texts of each client format', () => {
  it('OpenAI chat: every role, string content and text parts; images, tool calls and tools skipped', () => {
    const body = {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'developer', content: [{ type: 'text', text: 'dev' }] },
        { role: 'user', content: [{ type: 'text', text: 'u1' }, image, { type: 'input_audio', input_audio: { data: 'NOT-TEXT', format: 'wav' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'NOT-TEXT', arguments: '{"NOT":"TEXT"}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'tool out' },
        { role: 'assistant', content: 'a1' },
      ],
      tools: [{ type: 'function', function: { name: 'NOT-TEXT', description: 'NOT-TEXT' } }],
    };
    expect(texts('openai', 'chat', body)).toEqual(['sys', 'dev', 'u1', 'tool out', 'a1']);
  });

  it('OpenAI completions, embeddings and moderations: strings and text parts, token ids skipped', () => {
    expect(texts('openai', 'completions', { prompt: 'p' })).toEqual(['p']);
    expect(texts('openai', 'completions', { prompt: ['p1', 'p2'] })).toEqual(['p1', 'p2']);
    expect(texts('openai', 'completions', { prompt: [1, 2, 3] })).toEqual([]);
    expect(texts('openai', 'embeddings', { input: ['e1', [1, 2], 'e2'] })).toEqual(['e1', 'e2']);
    expect(texts('openai', 'moderations', { input: [{ type: 'text', text: 'm1' }, image] })).toEqual(['m1']);
    expect(texts('openai', 'images', { prompt: 'not checked' })).toEqual([]);
    expect(texts('openai', 'rerank', { query: 'not checked', documents: ['d'] })).toEqual([]);
  });

  it('Claude: system (string or blocks), text blocks and tool results; images, tool use and thinking skipped', () => {
    const body = {
      system: [{ type: 'text', text: 'sys' }],
      messages: [
        { role: 'user', content: 'u1' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'NOT-TEXT', signature: 's' }, { type: 'text', text: 'a1' }, { type: 'tool_use', id: 't', name: 'NOT-TEXT', input: { x: 'NOT-TEXT' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'r1' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'NOT-TEXT' } }] },
            { type: 'tool_result', tool_use_id: 't', content: 'r2' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/NOT-TEXT.png' } },
            { type: 'text', text: 'u2' },
          ],
        },
      ],
    };
    expect(texts('claude', 'chat', body)).toEqual(['sys', 'u1', 'a1', 'r1', 'r2', 'u2']);
    expect(texts('claude', 'chat', { system: 'plain', messages: [] })).toEqual(['plain']);
  });

  it('Gemini: system instruction (either spelling) and text parts; inline data and function parts skipped', () => {
    const body = {
      systemInstruction: { parts: [{ text: 'sys' }] },
      contents: [
        { role: 'user', parts: [{ text: 'u1' }, { inlineData: { mimeType: 'image/png', data: 'NOT-TEXT' } }] },
        { role: 'model', parts: [{ functionCall: { name: 'NOT-TEXT', args: { x: 'NOT-TEXT' } } }, { text: 'm1' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { x: 'NOT-TEXT' } } }] },
      ],
    };
    expect(texts('gemini', 'chat', body)).toEqual(['sys', 'u1', 'm1']);
    expect(texts('gemini', 'chat', { system_instruction: { parts: [{ text: 'proto' }] }, contents: [] })).toEqual(['proto']);
    expect(texts('gemini', 'embeddings', { content: { parts: [{ text: 'e1' }] } })).toEqual(['e1']);
    expect(texts('gemini', 'embeddings', { requests: [{ content: { parts: [{ text: 'e1' }] } }, { content: { parts: [{ text: 'e2' }] } }] })).toEqual(['e1', 'e2']);
  });

  it('Responses: instructions, input string or message items and function outputs; calls, reasoning and images skipped', () => {
    expect(texts('responses', 'chat', { instructions: 'ins', input: 'just text' })).toEqual(['ins', 'just text']);
    const input = [
      { role: 'user', content: 'u1' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'u2' }, { type: 'input_image', image_url: 'https://example.com/NOT-TEXT.png' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a1', annotations: [] }] },
      { type: 'function_call', call_id: 'c', name: 'NOT-TEXT', arguments: '{"NOT":"TEXT"}' },
      { type: 'function_call_output', call_id: 'c', output: 'out' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'NOT-TEXT' }] },
      { type: 'item_reference', id: 'NOT-TEXT' },
    ];
    expect(texts('responses', 'chat', { input })).toEqual(['u1', 'u2', 'a1', 'out']);
  });

  it('walks nothing in shapes it does not know', () => {
    expect(texts('openai', 'chat', { messages: 'x' })).toEqual([]);
    expect(texts('openai', 'chat', { messages: [null, 1, { content: 5 }, { content: [null, 7, { text: 3 }] }] })).toEqual([]);
    expect(texts('claude', 'chat', { messages: [{ content: { type: 'text', text: 'one block' } }] })).toEqual(['one block']);
    expect(texts('gemini', 'chat', { contents: [{ parts: { text: 'single part' } }] })).toEqual(['single part']);
  });
});
