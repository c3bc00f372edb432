import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatUsage } from '../openai/chat.js';
import { ChatToClaudeStream } from './from-chat.js';

const sdk = await import('@anthropic-ai/sdk').catch(() => null);

interface StreamCase {
  model: string;
  promptEstimate?: number;
  chunks: ChatChunk[];
  end: { usage?: ChatUsage; error?: { status: number; message: string } };
  expected: Array<{ event: string; data: { type: string; index?: number } }>;
  /** The message the official SDK assembles from the events (absent for error cases). */
  final?: Record<string, unknown>;
}

const dir = new URL('./fixtures/stream/', import.meta.url);
const streamCases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as StreamCase }));

function runStream(c: StreamCase): string {
  const conv = new ChatToClaudeStream(c.model, c.promptEstimate ?? 0);
  let out = '';
  for (const chunk of c.chunks) out += conv.push(chunk);
  out += c.end.error ? conv.error(c.end.error.status, c.end.error.message) : conv.finish(c.end.usage);
  return out;
}

/** Splits Claude SSE text into events, checking the framing: `event: X\ndata: {"type":"X",…}\n\n`. */
function parseSse(sse: string): StreamCase['expected'] {
  expect(sse.endsWith('\n\n')).toBe(true);
  return sse
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^event: [a-z_]+$/);
      expect(lines[1].startsWith('data: ')).toBe(true);
      const event = lines[0].slice(7);
      const data = JSON.parse(lines[1].slice(6)) as { type: string };
      expect(data.type).toBe(event);
      return { event, data };
    });
}

/** The order Anthropic documents: message_start, blocks (start, deltas, stop) by rising index, message_delta, message_stop. */
function checkOrder(events: StreamCase['expected']): void {
  expect(events[0].event).toBe('message_start');
  const last = events[events.length - 1].event;
  if (last === 'error') return;
  expect(events.slice(-2).map((e) => e.event)).toEqual(['message_delta', 'message_stop']);
  let next = 0;
  const open = new Set<number>();
  const seen = new Set<number>();
  for (const { event, data } of events.slice(1, -2)) {
    if (event === 'content_block_start') {
      expect(data.index).toBe(next++);
      expect(open.size).toBe(0);
      open.add(data.index ?? -1);
      seen.add(data.index ?? -1);
    } else if (event === 'content_block_delta') {
      expect(seen.has(data.index ?? -1)).toBe(true);
    } else if (event === 'content_block_stop') {
      expect(open.delete(data.index ?? -1)).toBe(true);
    } else {
      throw new Error(`unexpected ${event} inside the message`);
    }
  }
  expect(open.size).toBe(0);
}

describe('ChatChunk stream -> Claude events', () => {
  it('has fixtures', () => expect(streamCases.length).toBeGreaterThan(0));

  it.each(streamCases)('$file', ({ c }) => {
    const events = parseSse(runStream(c));
    checkOrder(events);
    expect(events).toEqual(c.expected);
  });

  it('emits nothing after the stream has ended', () => {
    const conv = new ChatToClaudeStream('claude-sonnet-4-5');
    conv.finish();
    expect(conv.push({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [] })).toBe('');
    expect(conv.finish()).toBe('');
    expect(conv.error(500, 'late')).toBe('');
  });
});

describe.skipIf(!sdk)('the official @anthropic-ai/sdk reads the converted stream', () => {
  it.each(streamCases)('$file', async ({ c }) => {
    if (!sdk) return;
    const body = runStream(c);
    const client = new sdk.default({
      apiKey: 'sk-test',
      baseURL: 'http://switchyard.test',
      maxRetries: 0,
      fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const stream = client.messages.stream({ model: 'switchyard-test', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
    if (c.end.error) {
      await expect(stream.finalMessage()).rejects.toBeInstanceOf(sdk.APIError);
      return;
    }
    // The SDK parses tool input lazily; a JSON round trip gives the plain message.
    expect(JSON.parse(JSON.stringify(await stream.finalMessage()))).toMatchObject(c.final ?? {});
  });
});

describe('text deltas written without serialising the whole event', () => {
  it('are the very bytes the whole event serialised gives, for any text', () => {
    const texts = ['plain', 'quote " and \\ backslash', 'line\nbreak\ttab', '中文 🎉', '\u2028\u2029', '\u0000\u001f', '</script>'];
    const stream = new ChatToClaudeStream('m');
    const chunk = (content: string): ChatChunk => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    stream.push(chunk(''));
    for (const text of texts) {
      const expected = `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`;
      expect(stream.push(chunk(text)).endsWith(expected)).toBe(true);
    }
  });
});
