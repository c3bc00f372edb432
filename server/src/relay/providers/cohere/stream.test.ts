import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatUsage } from '../../formats/openai/chat.js';
import { loadCases } from './fixtures.js';
import { CohereChunkDecoder } from './wire.js';

interface StreamCase {
  description: string;
  model: string;
  /** The upstream body exactly as Cohere sends it. */
  sse: string;
  expected: { chunks: ChatChunk[]; usage: ChatUsage | null; complete: boolean; failure: { type: string; message: string } | null };
}

/** Feeds the body in pieces of `size` bytes (splitting events and characters) the way sockets deliver it. */
function decode(fx: StreamCase, size: number): { chunks: ChatChunk[]; decoder: CohereChunkDecoder } {
  const decoder = new CohereChunkDecoder(fx.model, 1_700_000_000);
  const bytes = Buffer.from(fx.sse);
  const chunks: ChatChunk[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(...decoder.push(bytes.subarray(i, i + size)));
  chunks.push(...decoder.finish());
  return { chunks, decoder };
}

describe('Cohere v2 stream -> ChatChunks', () => {
  const cases = loadCases<StreamCase>('stream');
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (_file, fx) => {
    for (const size of [7, 1 << 20]) {
      const { chunks, decoder } = decode(fx, size);
      expect(chunks, fx.description).toEqual(fx.expected.chunks);
      expect(decoder.failure).toEqual(fx.expected.failure);
      const last = chunks.at(-1);
      expect(last?.choices.length === 0 ? last.usage : null).toEqual(fx.expected.usage);
    }
  });

  it('reads events framed with CRLF and a last event without a blank line', () => {
    const decoder = new CohereChunkDecoder('m', 1);
    const body =
      'event: message-start\r\ndata: {"id":"a","type":"message-start"}\r\n\r\n' +
      'event: message-end\r\ndata: {"type":"message-end","delta":{"finish_reason":"COMPLETE","usage":{"tokens":{"input_tokens":1,"output_tokens":2}}}}';
    const chunks = [...decoder.push(Buffer.from(body)), ...decoder.finish()];
    expect(chunks.map((c) => (c.choices.length === 0 ? 'usage' : c.choices[0].finish_reason))).toEqual([null, 'stop', 'usage']);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
  });
});
