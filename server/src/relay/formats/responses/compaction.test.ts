import { describe, expect, it } from 'vitest';
import { RelayError } from '../../errors.js';
import type { ChatChunk } from '../openai/chat.js';
import { COMPACTION_REQUEST, compactedSummary } from './compaction.js';
import { ChatToResponsesStream, chatToResponses } from './from-chat.js';
import { responsesToChat } from './to-chat.js';

/* Codex's remote compaction on a channel without one: the trigger asks the model for a summary, the answer is one
 * compaction item holding it, and the item sent back later is that summary again. */

const history = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What does a.txt say?' }] },
  { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"cat a.txt"}' },
  { type: 'function_call_output', call_id: 'c1', output: 'hello' },
];
const tools = [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: {} } }];
const compaction = { model: 'claude-sonnet-4-5', stream: true, tools, tool_choice: 'auto', parallel_tool_calls: true, input: [...history, { type: 'compaction_trigger' }] };

const chunk = (delta: object, finish: string | null = null): ChatChunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) as ChatChunk;

/** The SSE events of a converted stream, parsed. */
const events = (sse: string) =>
  sse
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => JSON.parse(frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { type: string; item?: Record<string, unknown>; response?: { output: unknown[] } });

describe('compaction on a channel without it', () => {
  it('asks the upstream for a summary in words: the trigger becomes the request, no tool is offered', () => {
    const dropped: string[] = [];
    const chat = responsesToChat(compaction, dropped);
    expect(chat.messages.at(-1)).toEqual({ role: 'user', content: COMPACTION_REQUEST });
    expect(chat.messages.some((m) => m.role === 'tool')).toBe(true);
    expect(chat).not.toHaveProperty('tools');
    expect(chat).not.toHaveProperty('tool_choice');
    expect(chat).not.toHaveProperty('parallel_tool_calls');
    expect(dropped).toContain('tools');
  });

  it('answers a stream with exactly one compaction item holding the summary, and no text of its own', () => {
    const conv = new ChatToResponsesStream(compaction, 'claude-sonnet-4-5', 'b1');
    let sse = conv.push(chunk({ role: 'assistant', content: 'The user asked ' }));
    sse += conv.push(chunk({ content: 'about a.txt; it says hello.' }, 'stop'));
    sse += conv.finish({ prompt_tokens: 100, completion_tokens: 12, total_tokens: 112 });
    const all = events(sse);
    expect(all.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    const output = all.at(-1)!.response!.output as Array<Record<string, unknown>>;
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({ type: 'compaction', id: expect.stringMatching(/^cmp_/) });
    expect(compactedSummary(output[0])).toBe('The user asked about a.txt; it says hello.');
  });

  it('answers a whole response the same way', () => {
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Summary.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    };
    const res = chatToResponses(completion as never, { ...compaction, stream: false }, 'b2');
    expect(res.output).toHaveLength(1);
    expect(compactedSummary(res.output[0] as never)).toBe('Summary.');
    expect(res.usage).toMatchObject({ input_tokens: 10, output_tokens: 2 });
  });

  it('puts the summary back as a user message when a later turn sends the item, before the turns after it', () => {
    const conv = new ChatToResponsesStream(compaction, 'm', 'b3');
    conv.push(chunk({ content: '中文摘要 with "quotes"' }, 'stop'));
    conv.finish();
    const item = conv.finished!.output[0];
    const next = responsesToChat({ model: 'm', input: [history[0], item, { type: 'message', role: 'user', content: 'go on' }], tools });
    expect(next.messages.map((m) => m.role)).toEqual(['user', 'user', 'user']);
    expect(next.messages[1].content).toContain('中文摘要 with "quotes"');
    expect(next.tools).toHaveLength(1);
  });

  it('refuses a compaction item it did not write (OpenAI’s, encrypted for OpenAI) with a 400 that says so', () => {
    const foreign = { type: 'compaction', id: 'cmp_x', encrypted_content: 'gAAAAABo-opaque' };
    let caught: unknown;
    try {
      responsesToChat({ model: 'm', input: [foreign, { type: 'message', role: 'user', content: 'go on' }] });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RelayError);
    expect((caught as RelayError).status).toBe(400);
    expect((caught as RelayError).message).toContain('compaction');
  });
});
