import { describe, expect, it } from 'vitest';
import { meterCases, runMeterCase } from '../../../test/meter-cases.js';
import { countTextTokens } from '../../tokenizer.js';
import { ResponsesStreamMeter, responsesUsageFromJson } from './meter.js';

const cases = meterCases<{
  /** The output text the meter counts when no usage came (empty when usage came). */
  countedText: string;
  countedToolCalls: number;
}>(new URL('./fixtures/meter/', import.meta.url));

describe('Responses passthrough meter', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (_file, c) => {
    const meter = new ResponsesStreamMeter(c.model);
    runMeterCase(meter, c);
    const counted = countTextTokens(c.expected.countedText, c.model) + 7 * c.expected.countedToolCalls;
    if (c.expected.usage) {
      expect(meter.billedUsage(99)).toEqual(c.expected.usage);
      expect(meter.completionTokens()).toBe(c.expected.usage.completionTokens);
    } else {
      expect(meter.counted()).toBe(counted);
      expect(meter.billedUsage(99)).toEqual({ promptTokens: 99, completionTokens: counted, cachedTokens: 0 });
    }
  });

  it('returns each chunk as the very same bytes, without waiting for the event to complete', () => {
    const meter = new ResponsesStreamMeter('gpt-4.1-mini');
    const half = Buffer.from('event: response.output_text.delta\ndata: {"type":"response.output_text.de');
    expect(meter.push(half)).toBe(half);
  });

  it('keeps memory bounded on a long stream without usage, and still counts all of it', () => {
    const meter = new ResponsesStreamMeter('gpt-4.1-mini');
    const word = 'lorem ';
    const event = `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, content_index: 0, delta: word.repeat(50) })}\n\n`;
    for (let i = 0; i < 2000; i++) meter.push(Buffer.from(event));
    meter.finish();
    const kept = (meter as unknown as { uncountedBytes: number }).uncountedBytes;
    expect(kept).toBeLessThanOrEqual(64 * 1024 + event.length);
    expect(meter.usage).toBeNull();
    expect(meter.counted()).toBe(countTextTokens(word.repeat(50 * 2000), 'gpt-4.1-mini'));
  });
});

describe('usage of a non-streamed Responses answer', () => {
  it('reads usage written after the output, cached tokens included in the prompt', () => {
    const body = Buffer.from(
      JSON.stringify({
        id: 'resp_1',
        object: 'response',
        output: [{ type: 'function_call', arguments: '{"usage":{"input_tokens":999}}' }],
        usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 60 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 107 },
        user: null,
        metadata: { usage: 'not this' },
      }),
    );
    expect(responsesUsageFromJson(body)).toEqual({ promptTokens: 100, completionTokens: 7, cachedTokens: 60 });
  });

  it('falls back to a full parse when the last "usage" is something else, and gives null without usage', () => {
    const body = Buffer.from('{"usage":{"input_tokens":3,"output_tokens":4},"tools":[{"parameters":{"properties":{"usage":{"type":"object"}}}}]}');
    expect(responsesUsageFromJson(body)).toEqual({ promptTokens: 3, completionTokens: 4, cachedTokens: 0 });
    expect(responsesUsageFromJson(Buffer.from('{"object":"response","usage":null}'))).toBeNull();
    expect(responsesUsageFromJson(Buffer.from('{"object":"response"}'))).toBeNull();
    expect(responsesUsageFromJson(Buffer.from('<html>'))).toBeNull();
  });
});
