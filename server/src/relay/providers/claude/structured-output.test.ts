import { describe, expect, it } from 'vitest';
import type { UpstreamCall } from '../../types.js';
import type { ChatChunk, ChatCompletion } from '../../formats/openai/chat.js';
import { ClaudeStreamToChat } from './stream.js';
import { fitsOutputFormat, hasOutputFormat, JSON_TOOL_DESCRIPTION } from './structured-output.js';
import { claudeWire } from './wire.js';

describe('Claude structured outputs', () => {
  it.each([
    ['claude-sonnet-4-5', true],
    ['claude-sonnet-4-5-20250929', true],
    ['claude-haiku-4-5@20251001', true],
    ['us.anthropic.claude-opus-4-5-20251101-v1:0', true],
    ['claude-opus-4-6', true],
    ['claude-sonnet-5', true],
    ['claude-fable-5', true],
    ['claude-sonnet-4-20250514', false],
    ['claude-opus-4-1', false],
    ['claude-3-5-haiku-20241022', false],
    ['claude-3-7-sonnet-latest', false],
    ['claude-instant-1.2', false],
  ])('knows whether %s has output_config.format (%s)', (model, expected) => {
    expect(hasOutputFormat(model)).toBe(expected);
  });

  it('takes only closed objects without bounds into output_config', () => {
    expect(fitsOutputFormat({ type: 'object', properties: { a: { type: 'string', format: 'email' } }, additionalProperties: false })).toBe(true);
    expect(fitsOutputFormat({ type: 'object', properties: { a: { type: 'string' } } })).toBe(false);
    expect(fitsOutputFormat({ type: 'object', properties: { a: { type: 'number', minimum: 0 } }, additionalProperties: false })).toBe(false);
    expect(fitsOutputFormat({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, minItems: 2 } }, additionalProperties: false })).toBe(false);
  });

  it('uses the tool where the upstream withholds output_config (Vertex), even for a 4.5 model', () => {
    const attempt = { upstreamModel: 'claude-sonnet-4-5', options: { get: () => ({ default: 8192 }) }, channel: { paramOverride: {} } } as unknown as UpstreamCall;
    const canonical = { model: 'x', messages: [{ role: 'user', content: 'hi' }], response_format: { type: 'json_schema', json_schema: { name: 'p', schema: { type: 'object', properties: {}, additionalProperties: false } } } };
    expect(claudeWire.encode(canonical, attempt).output_config).toBeDefined();
    const withheld = claudeWire.encode(canonical, attempt, new Set(['claude.output_format']));
    expect(withheld.output_config).toBeUndefined();
    expect(withheld.tool_choice).toEqual({ type: 'tool', name: 'json_response' });
  });

  const converted = { tools: [{ name: 'json_response', description: JSON_TOOL_DESCRIPTION, input_schema: { type: 'object' } }], tool_choice: { type: 'tool', name: 'json_response' } };
  const up = { converted, call: { model: 'gpt-4o' } } as unknown as UpstreamCall;

  it('turns the response tool’s input into the answer’s text, finishing with stop', () => {
    const body = Buffer.from(
      JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-3-5-haiku-20241022',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'json_response', input: { name: 'Jane', age: 31 } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 9 },
      }),
    );
    const answer = claudeWire.decode(body, up) as unknown as ChatCompletion;
    expect(answer.choices[0].message).toEqual({ role: 'assistant', content: '{"name":"Jane","age":31}' });
    expect(answer.choices[0].finish_reason).toBe('stop');
  });

  it('streams the response tool’s input as content deltas, finishing with stop', () => {
    const toChat = new ClaudeStreamToChat(1_700_000_000, 'json_response');
    const events: Array<[string, object]> = [
      ['message_start', { message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 20, output_tokens: 1 } } }],
      ['content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'json_response', input: {} } }],
      ['content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"name":"Ja' } }],
      ['content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: 'ne"}' } }],
      ['content_block_stop', { index: 0 }],
      ['message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }],
      ['message_stop', {}],
    ];
    const chunks: ChatChunk[] = events.flatMap(([name, data]) => toChat.push(name, data));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('{"name":"Jane"}');
    expect(chunks.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['stop']);
  });

  it('leaves a client tool call a tool call next to the response tool', () => {
    const toChat = new ClaudeStreamToChat(1_700_000_000, 'json_response');
    const chunks = [
      ...toChat.push('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: {} } }),
      ...toChat.push('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' } }),
      ...toChat.push('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }),
    ];
    expect(chunks[0].choices[0].delta.tool_calls?.[0]).toMatchObject({ index: 0, function: { name: 'lookup' } });
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('tool_calls');
  });
});
