import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatUsage } from '../../formats/openai/chat.js';
import { ClaudeSseSplitter, ClaudeStreamToChat } from './stream.js';
import { SseReader } from '../../formats/claude/sse.js';

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

  it.each(cases)('$file, read as the relay reads it (SSE events with their data unparsed)', ({ c }) => {
    const reader = new SseReader();
    const conv = new ClaudeStreamToChat(1_700_000_000);
    const chunks: ChatChunk[] = [];
    for (const piece of wire(c.events)) for (const e of reader.push(piece)) chunks.push(...conv.pushRaw(e));
    for (const e of reader.finish()) chunks.push(...conv.pushRaw(e));
    expect(chunks).toEqual(c.expected.chunks);
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

describe('thinking signatures', () => {
  const signaturesOf = (blocks: Array<{ type: string; signature?: string }>): unknown[] => {
    const conv = new ClaudeStreamToChat(1_700_000_000);
    const chunks = [conv.push('message_start', { message: { id: 'm', model: 'claude' } })];
    blocks.forEach((block, index) => {
      chunks.push(conv.push('content_block_start', { index, content_block: { type: block.type } }));
      if (block.signature) chunks.push(conv.push('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }));
      chunks.push(conv.push('content_block_stop', { index }));
    });
    chunks.push(conv.push('message_delta', { delta: { stop_reason: 'end_turn' } }));
    return chunks.flat().flatMap((c) => c.choices.map((ch) => ch.delta.reasoning_signature).filter(Boolean));
  };

  it("sends a lone thinking block's signature when its run ends, before the next block", () => {
    expect(signaturesOf([{ type: 'thinking', signature: 's1' }, { type: 'text' }])).toEqual(['s1']);
    expect(signaturesOf([{ type: 'thinking', signature: 's1' }])).toEqual(['s1']);
    expect(signaturesOf([{ type: 'thinking', signature: 's1' }, { type: 'tool_use' }, { type: 'thinking', signature: 's2' }, { type: 'tool_use' }])).toEqual(['s1', 's2']);
  });

  it('sends none for a run of several thinking blocks or one with redacted thinking: Claude takes a turn back only whole', () => {
    expect(signaturesOf([{ type: 'thinking', signature: 's1' }, { type: 'thinking', signature: 's2' }, { type: 'text' }])).toEqual([]);
    expect(signaturesOf([{ type: 'thinking', signature: 's1' }, { type: 'redacted_thinking' }, { type: 'text' }])).toEqual([]);
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

/*
 * Text deltas are read by their template, not parsed: every variant of one must give what parsing it gives, and
 * anything that only looks like one must be parsed (or skipped) as before.
 */
describe('text deltas read without parsing the event', () => {
  const variants = [
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}',
    '{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"a \\"quoted\\" }} word\\n"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u4f60\\u597d 你好 \\ud83d\\ude00"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}',
    '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"leading zero"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","extra":1}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"x":"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a" }}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"open}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}',
    '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "spaced"}}',
  ];

  function parsedWhole(data: string): ChatChunk[] {
    const conv = new ClaudeStreamToChat(1_700_000_000);
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return [];
    }
    return parsed && typeof parsed === 'object' ? conv.push('content_block_delta', parsed) : [];
  }

  it.each(variants)('%s', (data) => {
    for (const event of ['content_block_delta', '']) {
      expect(new ClaudeStreamToChat(1_700_000_000).pushRaw({ event, data })).toEqual(parsedWhole(data));
    }
  });
});
