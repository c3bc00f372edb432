import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatCompletion } from '../openai/chat.js';
import { chatToResponses, ChatToResponsesStream } from './from-chat.js';
import { configureReasoningSeal, sealReasoning, unsealReasoning } from './sealed-reasoning.js';
import { responsesToChat } from './to-chat.js';
import type { ResponsesReasoningItem } from './types.js';

const thought = { text: 'The user wants a.txt read; I call read.', signature: 'EqQBCkYIBRgCKkBMockSignature==' };
const asking = { model: 'claude-x', input: 'read a.txt', store: false, include: ['reasoning.encrypted_content'] };

describe('sealing', () => {
  it('opens what it sealed, and nothing altered, foreign or sealed under another secret', () => {
    configureReasoningSeal('secret one');
    const blob = sealReasoning(thought);
    expect(blob).toMatch(/^sy1\.[\w-]+$/);
    expect(blob).not.toContain('read a.txt');
    expect(unsealReasoning(blob)).toEqual(thought);
    expect(sealReasoning(thought)).not.toBe(blob);

    const raw = Buffer.from(blob.slice(4), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(unsealReasoning('sy1.' + raw.toString('base64url'))).toBeNull();
    expect(unsealReasoning('gAAAAABoOpenAIsOwnEncryptedContent')).toBeNull();
    expect(unsealReasoning('sy1.')).toBeNull();
    expect(unsealReasoning(42)).toBeNull();

    configureReasoningSeal('secret two');
    expect(unsealReasoning(blob)).toBeNull();
    configureReasoningSeal('secret one');
    expect(unsealReasoning(blob)).toEqual(thought);
  });
});

describe('reasoning items of a converted answer', () => {
  const completion = (message: Record<string, unknown>): ChatCompletion =>
    ({ id: 'x', object: 'chat.completion', created: 1, model: 'claude-x', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'tool_calls' }] }) as ChatCompletion;
  const call = { id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } };

  it('carry the thinking sealed when the request includes reasoning.encrypted_content, and only then', () => {
    const answer = completion({ content: null, reasoning_content: thought.text, reasoning_signature: thought.signature, tool_calls: [call] });
    const sealed = chatToResponses(answer, asking, 'b1').output[0] as ResponsesReasoningItem;
    expect(sealed.summary).toEqual([{ type: 'summary_text', text: thought.text }]);
    expect(unsealReasoning(sealed.encrypted_content)).toEqual(thought);
    const plain = chatToResponses(answer, { ...asking, include: [] }, 'b1').output[0] as ResponsesReasoningItem;
    expect(plain).not.toHaveProperty('encrypted_content');
  });

  it('carry a signature that came without thinking words (Gemini) in an item of its own', () => {
    const answer = completion({ content: null, reasoning_signature: 'gemini-thought-sig', tool_calls: [call] });
    const [item, fc] = chatToResponses(answer, asking, 'b1').output as [ResponsesReasoningItem, { type: string }];
    expect(item.summary).toEqual([]);
    expect(unsealReasoning(item.encrypted_content)).toEqual({ text: '', signature: 'gemini-thought-sig' });
    expect(fc.type).toBe('function_call');
  });

  const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatChunk =>
    ({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'claude-x', choices: [{ index: 0, delta, finish_reason: finish }] }) as ChatChunk;
  const streamed = (chunks: ChatChunk[], req: Record<string, unknown> = asking) => {
    const conv = new ChatToResponsesStream(req, 'claude-x', 'b2');
    let sse = '';
    for (const c of chunks) sse += conv.push(c);
    sse += conv.finish();
    const events = sse
      .trim()
      .split('\n\n')
      .map((block) => JSON.parse(block.split('\n')[1].slice(6)) as { type: string; item?: Record<string, unknown> });
    return { events, done: events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item!) };
  };

  it('streamed: the thinking is sealed when its item closes, as output_item.done and the completed response carry it', () => {
    const { events, done } = streamed([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'The user wants a.txt read; ' }),
      chunk({ reasoning_content: 'I call read.' }),
      chunk({ reasoning_signature: thought.signature }),
      chunk({ tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(done.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(unsealReasoning(done[0].encrypted_content)).toEqual(thought);
    const completed = events.at(-1) as unknown as { response: { output: Array<Record<string, unknown>> } };
    expect(completed.response.output[0].encrypted_content).toBe(done[0].encrypted_content);
  });

  it('streamed: a signature with no thinking open gets its own item before the call; two in one item seal nothing', () => {
    const gemini = streamed([
      chunk({ content: 'Reading.' }),
      chunk({ reasoning_signature: 'gemini-thought-sig', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(gemini.done.map((i) => i.type)).toEqual(['message', 'reasoning', 'function_call']);
    expect(unsealReasoning(gemini.done[1].encrypted_content)).toEqual({ text: '', signature: 'gemini-thought-sig' });
    expect(gemini.done[1].summary).toEqual([]);

    const twice = streamed([chunk({ reasoning_content: 'a' }), chunk({ reasoning_signature: 's1' }), chunk({ reasoning_signature: 's2' }), chunk({ content: 'x' }), chunk({}, 'stop')]);
    expect(twice.done[0]).not.toHaveProperty('encrypted_content');
    const unasked = streamed([chunk({ reasoning_content: 'a' }), chunk({ reasoning_signature: 's1' }), chunk({ content: 'x' }), chunk({}, 'stop')], { ...asking, include: undefined });
    expect(unasked.done[0]).not.toHaveProperty('encrypted_content');
  });
});

describe('sealed reasoning sent back', () => {
  const history = (reasoning: Record<string, unknown>[]) => [
    { role: 'user', content: 'read a.txt' },
    ...reasoning,
    { type: 'function_call', call_id: 'toolu_1', name: 'read', arguments: '{"path":"a.txt"}' },
    { type: 'function_call_output', call_id: 'toolu_1', output: 'hello' },
  ];
  const assistantOf = (input: unknown[]) => {
    const dropped: string[] = [];
    const req = responsesToChat({ ...asking, input, tools: [{ type: 'function', name: 'read', parameters: { type: 'object' } }] }, dropped);
    return { msg: req.messages.find((m) => m.role === 'assistant')!, dropped };
  };
  const item = (extra: Record<string, unknown>) => ({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'a summary' }], ...extra });

  it('gives the turn its exact thinking and signature, and include is not named as dropped', () => {
    const { msg, dropped } = assistantOf(history([item({ encrypted_content: sealReasoning(thought) })]));
    expect(msg.reasoning_content).toBe(thought.text);
    expect(msg.reasoning_signature).toBe(thought.signature);
    expect(dropped).not.toContain('include');
  });

  it('reads an item it cannot open (OpenAI’s, altered, another secret) as its summary only', () => {
    const { msg } = assistantOf(history([item({ encrypted_content: 'gAAAAABforeign' })]));
    expect(msg.reasoning_content).toBe('a summary');
    expect(msg).not.toHaveProperty('reasoning_signature');
  });

  it('sends no signature when two sealed items precede one turn', () => {
    const { msg } = assistantOf(history([item({ encrypted_content: sealReasoning(thought) }), item({ id: 'rs_2', encrypted_content: sealReasoning({ text: 'b', signature: 's2' }) })]));
    expect(msg).not.toHaveProperty('reasoning_signature');
  });

  it('names include as dropped when it asks for more than the sealed reasoning', () => {
    const dropped: string[] = [];
    responsesToChat({ ...asking, include: ['reasoning.encrypted_content', 'file_search_call.results'] }, dropped);
    expect(dropped).toContain('include');
  });
});
