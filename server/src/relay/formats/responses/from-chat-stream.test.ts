import { readdirSync, readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatUsage } from '../openai/chat.js';
import { ChatToResponsesStream } from './from-chat.js';
import { newIdBase } from './ids.js';

interface StreamCase {
  request: Record<string, unknown>;
  chunks: ChatChunk[];
  end: { usage?: ChatUsage; error?: string };
  expected: Array<Record<string, unknown> & { type: string; sequence_number: number }>;
  /** What the terminal event's response must hold (and what the SDK's finalResponse() gives back). */
  final: { status: string; output: unknown[]; usage: unknown; incomplete_details: unknown; error: unknown };
}

const dir = new URL('./fixtures/stream/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as StreamCase }));

/** The id base the fixture's ids were written with (a fresh one where the fixture leaves the id open). */
function baseOf(c: StreamCase): string {
  const id = (c.expected.find((e) => e.response)?.response as { id: string }).id;
  return id === 'resp_*' ? newIdBase() : id.slice('resp_'.length);
}

function run(c: StreamCase): string {
  const conv = new ChatToResponsesStream(c.request, String(c.request.model), baseOf(c));
  let out = '';
  for (const chunk of c.chunks) out += conv.push(chunk);
  return out + (c.end.error !== undefined ? conv.error(c.end.error) : conv.finish(c.end.usage));
}

/** Splits the SSE text into events, checking the framing: `event: X\ndata: {"type":"X",…}\n\n`. */
function parseSse(sse: string): StreamCase['expected'] {
  expect(sse.endsWith('\n\n')).toBe(true);
  return sse
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^event: [a-z_.]+$/);
      expect(lines[1].startsWith('data: ')).toBe(true);
      const data = JSON.parse(lines[1].slice(6)) as StreamCase['expected'][number];
      expect(data.type).toBe(lines[0].slice(7));
      return data;
    });
}

/** Ids are minted by the gateway (ids.ts); without chunks the time is generated too. */
function normaliseGenerated(events: StreamCase['expected']): void {
  for (const e of events) {
    const r = e.response as { id: string; created_at: number } | undefined;
    if (!r) continue;
    expect(r.id).toMatch(/^resp_sy[0-9a-f]{48}$/);
    r.id = 'resp_*';
    r.created_at = 0;
  }
}

/** The documented lifecycle: numbered events, created then in_progress, every item added before use and done once. */
function checkLifecycle(events: StreamCase['expected']): void {
  events.forEach((e, i) => expect(e.sequence_number).toBe(i));
  expect(events.slice(0, 2).map((e) => e.type)).toEqual(['response.created', 'response.in_progress']);
  const terminal = events[events.length - 1].type;
  expect(['response.completed', 'response.incomplete', 'response.failed']).toContain(terminal);
  const added = new Set<number>();
  const done = new Set<number>();
  for (const e of events.slice(2, -1)) {
    const index = e.output_index as number | undefined;
    if (e.type === 'error') continue;
    expect(index).toBeTypeOf('number');
    if (e.type === 'response.output_item.added') {
      expect(index).toBe(added.size);
      added.add(index!);
    } else {
      expect(added.has(index!)).toBe(true);
      expect(done.has(index!)).toBe(false);
      if (e.type === 'response.output_item.done') done.add(index!);
    }
  }
  // A finished answer closes every item; a failed one stops where it was.
  if (terminal !== 'response.failed') expect(done.size).toBe(added.size);
}

/** One chunk of a gpt-4o stream with choice 0's delta. */
const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: ChatChunk['choices'][number]['finish_reason'] = null): ChatChunk => ({
  id: 'chatcmpl-u',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('ChatChunk stream -> Responses events', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('$file', ({ c }) => {
    const events = parseSse(run(c));
    if (c.chunks.length === 0) normaliseGenerated(events);
    checkLifecycle(events);
    expect(events).toEqual(c.expected);
    const final = events[events.length - 1].response as StreamCase['final'];
    expect(final).toMatchObject(c.final);
  });

  it('holds the closing events until finish(), so usage sent after finish_reason is reported', () => {
    const conv = new ChatToResponsesStream({ model: 'gpt-4o' }, 'gpt-4o', newIdBase());
    const before = conv.push(chunk({ content: 'Hi' })) + conv.push(chunk({}, 'stop'));
    expect(before).not.toContain('response.completed');
    const usage = conv.push({ ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } });
    expect(usage).toBe('');
    const end = conv.finish();
    expect(end).toContain('event: response.completed');
    expect(end).toContain('"usage":{"input_tokens":3,');
  });

  it('writes a custom tool’s stand-in call as a custom_tool_call, its input read from the whole arguments at the close', () => {
    const request = { model: 'gpt-4o', tools: [{ type: 'custom', name: 'apply_patch' }] };
    const conv = new ChatToResponsesStream(request, 'gpt-4o', newIdBase());
    const call = (args: string, first = false) =>
      chunk({ tool_calls: [{ index: 0, ...(first ? { id: 'call_1', type: 'function' as const } : {}), function: { ...(first ? { name: 'apply_patch' } : {}), arguments: args } }] });
    const sse = conv.push(call('{"inp', true)) + conv.push(call('ut":"*** Begin Patch\\n+\\"hi\\"')) + conv.push(call('\\n*** End Patch"}')) + conv.push(chunk({}, 'tool_calls')) + conv.finish();
    const events = parseSse(sse);
    checkLifecycle(events);
    const input = '*** Begin Patch\n+"hi"\n*** End Patch';
    expect(events.filter((e) => e.type.startsWith('response.custom_tool_call_input'))).toEqual([
      expect.objectContaining({ type: 'response.custom_tool_call_input.delta', delta: input, output_index: 0 }),
      expect.objectContaining({ type: 'response.custom_tool_call_input.done', input, output_index: 0 }),
    ]);
    expect(events.some((e) => e.type.startsWith('response.function_call_arguments'))).toBe(false);
    expect(events.find((e) => e.type === 'response.output_item.added')?.item).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: '', status: 'in_progress' });
    expect(events.find((e) => e.type === 'response.output_item.done')?.item).toMatchObject({ type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input, status: 'completed' });
  });

  it('emits nothing after the stream has ended', () => {
    const conv = new ChatToResponsesStream({ model: 'gpt-4o' }, 'gpt-4o', newIdBase());
    conv.finish();
    expect(conv.push({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [] })).toBe('');
    expect(conv.finish()).toBe('');
    expect(conv.error('late')).toBe('');
  });
});

describe('the official openai SDK reads every converted stream', () => {
  it.each(cases)('$file', async ({ c }) => {
    const body = run(c);
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: 'http://switchyard.test/v1',
      maxRetries: 0,
      fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const stream = client.responses.stream({ model: String(c.request.model), input: 'hi' });
    if (c.end.error !== undefined) {
      // The error event makes the SDK's stream fail with the message, so the caller learns the answer broke off.
      await expect(stream.finalResponse()).rejects.toThrow(c.end.error);
      return;
    }
    const final = await stream.finalResponse();
    const expected = JSON.parse(JSON.stringify(c.final)) as StreamCase['final'];
    expect({ status: final.status, usage: final.usage, error: final.error, incomplete_details: final.incomplete_details }).toEqual({
      status: expected.status,
      usage: expected.usage,
      error: expected.error,
      incomplete_details: expected.incomplete_details,
    });
    expect(final.output).toMatchObject(expected.output);
    const text = expected.output
      .flatMap((item) => ((item as { type: string }).type === 'message' ? (item as { content: Array<{ type: string; text?: string }> }).content : []))
      .filter((p) => p.type === 'output_text')
      .map((p) => p.text)
      .join('');
    expect(final.output_text).toBe(text);
  });
});
