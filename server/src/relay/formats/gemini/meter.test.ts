import { describe, expect, it } from 'vitest';
import { GeminiStreamMeter, geminiUsageFromJson } from './meter.js';

const event = (data: unknown, sep = '\r\n\r\n') => `data: ${JSON.stringify(data)}${sep}`;
const text = (t: string, usage?: Record<string, number>) =>
  event({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }], ...(usage ? { usageMetadata: usage } : {}) });

describe('Gemini passthrough meter', () => {
  it('forwards every chunk byte for byte, even split inside events and characters', () => {
    const meter = new GeminiStreamMeter('gemini-2.5-flash');
    const all = Buffer.from(text('你好', { promptTokenCount: 3 }) + text('世界', { promptTokenCount: 3, candidatesTokenCount: 2 }));
    const out: Buffer[] = [];
    for (let i = 0; i < all.length; i += 5) {
      const piece = all.subarray(i, i + 5);
      const forwarded = meter.push(piece);
      expect(forwarded).toBe(piece);
      out.push(forwarded);
    }
    out.push(meter.finish());
    expect(Buffer.concat(out).equals(all)).toBe(true);
    expect(meter.usage).toEqual({ promptTokens: 3, completionTokens: 2, cachedTokens: 0 });
    expect(meter.firstTokenAt).toBeGreaterThan(0);
  });

  it('takes the last usageMetadata: cached inside the prompt, thoughts billed as output', () => {
    const meter = new GeminiStreamMeter('gemini-2.5-pro');
    meter.push(Buffer.from(text('a', { promptTokenCount: 100, candidatesTokenCount: 1 })));
    meter.push(Buffer.from(text('b', { promptTokenCount: 100, cachedContentTokenCount: 40, candidatesTokenCount: 7, thoughtsTokenCount: 20, totalTokenCount: 127 })));
    expect(meter.sawFinish).toBe(false);
    meter.push(Buffer.from(event({ candidates: [{ content: { parts: [{ text: '' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 40, candidatesTokenCount: 7, thoughtsTokenCount: 20 } })));
    expect(meter.sawFinish).toBe(true);
    expect(meter.usage).toEqual({ promptTokens: 100, completionTokens: 27, cachedTokens: 40 });
    expect(meter.completionTokens()).toBe(27);
  });

  it('splits events framed with \\n\\n as well, and reads a last event without its blank line', () => {
    const meter = new GeminiStreamMeter('gemini-2.5-flash');
    meter.push(Buffer.from(event({ candidates: [] }, '\n\n')));
    meter.push(Buffer.from(text('x', { promptTokenCount: 2, candidatesTokenCount: 1 }).trimEnd()));
    expect(meter.usage).toBeNull();
    meter.finish();
    expect(meter.usage).toEqual({ promptTokens: 2, completionTokens: 1, cachedTokens: 0 });
  });

  it('counts what was generated when usage never comes (a stream cut early)', () => {
    const meter = new GeminiStreamMeter('gemini-2.5-flash');
    meter.push(Buffer.from(text('Hello') + text(' world')));
    meter.push(Buffer.from(event({ candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] } }] })));
    meter.push(Buffer.from('data: {"candidates":[{"content":{"parts":[{"text":"cut'));
    meter.finish();
    expect(meter.usage).toBeNull();
    expect(meter.sawFinish).toBe(false);
    expect(meter.completionTokens()).toBeGreaterThan(2 + 7);
  });
});

describe('Gemini usage from a JSON answer', () => {
  it('reads usageMetadata without being fooled by text that mentions it', () => {
    const body = Buffer.from(
      JSON.stringify({
        candidates: [{ content: { parts: [{ text: '"usageMetadata": {} }' }] } }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3, cachedContentTokenCount: 4, totalTokenCount: 18 },
      }),
    );
    expect(geminiUsageFromJson(body)).toEqual({ promptTokens: 10, completionTokens: 8, cachedTokens: 4 });
    expect(geminiUsageFromJson(Buffer.from('{"candidates":[]}'))).toBeNull();
  });
});
