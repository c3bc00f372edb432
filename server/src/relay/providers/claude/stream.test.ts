import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatUsage } from '../../formats/openai/chat.js';
import { ClaudeSseSplitter, ClaudeStreamToChat } from './stream.js';

interface StreamCase {
  events: Array<{ event: string; data: object }>;
  expected: { chunks: ChatChunk[]; complete: boolean; usage: ChatUsage | null; error: { type: string; message: string } | null };
}

const dir = new URL('./fixtures/stream/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as StreamCase }));

/** The events as Anthropic frames them, cut into 7-byte pieces so events and characters straddle chunks. */
function wire(events: StreamCase['events']): Buffer[] {
  const bytes = Buffer.from(events.map((e) => `event: ${e.event}\r\ndata: ${JSON.stringify(e.data)}\r\n\r\n`).join(''));
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 7) pieces.push(bytes.subarray(i, i + 7));
  return pieces;
}

describe('Claude stream -> ChatChunks', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('$file', ({ c }) => {
    const splitter = new ClaudeSseSplitter();
    const conv = new ClaudeStreamToChat(1_700_000_000);
    const split: StreamCase['events'] = [];
    for (const piece of wire(c.events)) split.push(...splitter.push(piece));
    split.push(...splitter.finish());
    expect(split).toEqual(c.events);
    const chunks = split.flatMap((e) => conv.push(e.event, e.data));
    expect(chunks).toEqual(c.expected.chunks);
    expect(conv.complete).toBe(c.expected.complete);
    expect(conv.usage()).toEqual(c.expected.usage);
    expect(conv.error).toEqual(c.expected.error);
  });

  it('reads the last event of a body that ends without a blank line, and skips comments and non-JSON data', () => {
    const splitter = new ClaudeSseSplitter();
    const events = splitter.push(Buffer.from(': keep-alive\n\nevent: ping\ndata: not json\n\nevent: message_stop\ndata: {"type":"message_stop"}'));
    expect(events).toEqual([]);
    expect(splitter.finish()).toEqual([{ event: 'message_stop', data: { type: 'message_stop' } }]);
  });
});

describe('SSE splitting limits', () => {
  it('drops a line that grows past the limit without a newline, and carries on with the next event', () => {
    const splitter = new ClaudeSseSplitter();
    const huge = Buffer.alloc(1024 * 1024, 0x61);
    expect(splitter.push(Buffer.from('event: ping\ndata: '))).toEqual([]);
    for (let i = 0; i < 9; i++) expect(splitter.push(huge)).toEqual([]);
    const after = splitter.push(Buffer.from('\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n'));
    expect(after).toEqual([{ event: 'message_stop', data: { type: 'message_stop' } }]);
  });
});
