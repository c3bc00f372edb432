import { describe, expect, it } from 'vitest';
import type { ClientCall } from '../../types.js';
import type { ChatChunk } from './chat.js';
import { openAIClient } from './client.js';

const call = (clientWantsStreamUsage: boolean) => ({ model: 'gpt-4o', clientWantsStreamUsage }) as unknown as ClientCall;
const chunk = (extra: Partial<ChatChunk> = {}): ChatChunk => ({
  id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'up', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }], ...extra,
});

describe('OpenAI stream of converted chunks', () => {
  it('writes a chunk without usage as it is', () => {
    const encoder = openAIClient.streamEncoder(call(true), 0);
    expect(encoder.push(chunk())).toBe(`data: ${JSON.stringify(chunk())}\n\n`);
    expect(encoder.push(chunk({ choices: [] }))).toBe('');
  });

  it('keeps usage on a chunk only for a client that asked for it, last', () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };
    const withUsage = { id: 'c1', object: 'chat.completion.chunk', usage, created: 7, model: 'up', choices: chunk().choices } as ChatChunk;
    expect(openAIClient.streamEncoder(call(false), 0).push(withUsage)).toBe(`data: ${JSON.stringify(chunk())}\n\n`);
    expect(openAIClient.streamEncoder(call(true), 0).push(withUsage)).toBe(`data: ${JSON.stringify({ ...chunk(), usage })}\n\n`);
  });

  it('writes the same bytes as the whole chunk serialised, whatever its id, model or extra fields', () => {
    const encoder = openAIClient.streamEncoder(call(false), 0);
    const chunks = [
      chunk(),
      chunk({ id: 'c2', model: 'm "quoted" \u2028' }),
      chunk({ id: 'c2', model: 'm "quoted" \u2028', created: 8 }),
      { ...chunk(), system_fingerprint: 'fp' } as ChatChunk,
      { choices: chunk().choices, id: 'c3', object: 'chat.completion.chunk', created: 1, model: 'x' } as ChatChunk,
    ];
    for (const c of chunks) expect(encoder.push(c)).toBe(`data: ${JSON.stringify(c)}\n\n`);
  });

  it('writes the same bytes as the choices serialised, for the text piece it writes from a template and every near miss', () => {
    const encoder = openAIClient.streamEncoder(call(false), 0);
    const choiceSets = [
      [{ index: 0, delta: { content: 'plain' }, finish_reason: null }],
      [{ index: 0, delta: { content: 'esc "q" \\ \n \u2028 你好 \ud83d\ude00' }, finish_reason: null }],
      [{ index: 0, delta: { content: '' }, finish_reason: null }],
      [{ index: 1, delta: { content: 'second choice' }, finish_reason: null }],
      [{ index: 0, delta: { content: 'done' }, finish_reason: 'stop' }],
      [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      [{ index: 0, delta: { content: 'x', reasoning_content: 'y' }, finish_reason: null }],
      [{ index: 0, delta: { reasoning_content: 'thinking' }, finish_reason: null }],
      [{ index: 0, delta: { content: null }, finish_reason: null }],
      [{ delta: { content: 'keys reordered' }, index: 0, finish_reason: null }],
      [{ index: 0, delta: { content: 'with logprobs' }, finish_reason: null, logprobs: null }],
      [{ index: 0, delta: { content: 'a' }, finish_reason: null }, { index: 1, delta: { content: 'b' }, finish_reason: null }],
    ] as unknown as ChatChunk['choices'][];
    for (const choices of choiceSets) {
      const c = chunk({ choices });
      expect(encoder.push(c)).toBe(`data: ${JSON.stringify(c)}\n\n`);
    }
  });
});
