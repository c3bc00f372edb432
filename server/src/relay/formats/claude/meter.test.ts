import { describe, expect, it } from 'vitest';
import { meterCases, runMeterCase } from '../../../test/meter-cases.js';
import type { Usage } from '../../types.js';
import { ClaudeStreamMeter, claudeUsageFromJson } from './meter.js';

const cases = meterCases<{ billed: Usage }>(new URL('./fixtures/meter/', import.meta.url));

describe('Claude passthrough meter', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (_file, c) => {
    const meter = new ClaudeStreamMeter(c.model);
    runMeterCase(meter, c);
    expect(meter.billedUsage()).toEqual(c.expected.billed);
  });

  it('returns each chunk as the very same bytes, without waiting for the event to complete', () => {
    const meter = new ClaudeStreamMeter('claude-sonnet-4-5');
    const half = Buffer.from('event: content_block_delta\ndata: {"type":"content_block_de');
    expect(meter.push(half)).toBe(half);
  });
});

describe('usage of a non-streamed Claude answer', () => {
  it('includes cache reads and writes in the prompt', () => {
    const body = Buffer.from(
      JSON.stringify({
        id: 'msg_1',
        type: 'message',
        content: [{ type: 'tool_use', id: 't', name: 'f', input: { usage: { input_tokens: 999 } } }],
        usage: { input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 5 },
      }),
    );
    expect(claudeUsageFromJson(body)).toEqual({ promptTokens: 60, completionTokens: 5, cachedTokens: 30, cacheCreationTokens: 20 });
  });

  it('falls back to a full parse when usage is not last, and gives null without usage', () => {
    const body = Buffer.from('{"usage":{"input_tokens":3,"output_tokens":4},"content":[{"type":"tool_use","input":{"usage":{"x":1}}}]}');
    expect(claudeUsageFromJson(body)).toEqual({ promptTokens: 3, completionTokens: 4, cachedTokens: 0, cacheCreationTokens: 0 });
    expect(claudeUsageFromJson(Buffer.from('{"type":"message"}'))).toBeNull();
    expect(claudeUsageFromJson(Buffer.from('<html>'))).toBeNull();
  });
});
