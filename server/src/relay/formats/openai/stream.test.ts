import { describe, expect, it } from 'vitest';
import { OpenAIStreamMeter } from './stream.js';

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const delta = (content: string) => event({ choices: [{ index: 0, delta: { content } }] });
const usage = event({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } });

describe('OpenAI stream meter', () => {
  it('forwards whole events byte for byte, even when they arrive split across chunks', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    const all = delta('Hel') + delta('lo') + 'data: [DONE]\n\n';
    const bytes = Buffer.from(all);
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) out.push(meter.push(bytes.subarray(i, i + 7)));
    out.push(meter.finish());
    expect(Buffer.concat(out).toString()).toBe(all);
    expect(meter.sawDone).toBe(true);
  });

  it('keeps multi-byte characters whole across chunk boundaries', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', false);
    const bytes = Buffer.from(delta('你好世界'));
    const out = Buffer.concat([meter.push(bytes.subarray(0, 25)), meter.push(bytes.subarray(25))]);
    expect(out.toString()).toBe(delta('你好世界'));
  });

  it('reads usage and holds back the usage-only chunk a client did not ask for', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    const out = meter.push(Buffer.from(delta('Hi') + usage + 'data: [DONE]\n\n'));
    expect(out.toString()).toBe(delta('Hi') + 'data: [DONE]\n\n');
    expect(meter.usage).toEqual({ promptTokens: 5, completionTokens: 3, cachedTokens: 0 });
    expect(meter.completionTokens()).toBe(3);
  });

  it('counts what was generated when usage never comes', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    meter.push(Buffer.from(delta('Hello') + delta(' world')));
    expect(meter.usage).toBeNull();
    expect(meter.completionTokens()).toBe(2);
    expect(meter.firstTokenAt).toBeGreaterThan(0);
  });

  it('reads usage that rides on a content chunk and ignores the usage:null of every other chunk', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    const chunks = [
      event({ choices: [{ index: 0, delta: { content: 'Hi' } }], usage: null }),
      event({ choices: [{ index: 0, delta: { content: '!' }, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: 2 } }),
      'data: [DONE]\n\n',
    ].join('');
    expect(meter.push(Buffer.from(chunks)).toString()).toBe(chunks);
    expect(meter.usage).toEqual({ promptTokens: 7, completionTokens: 2, cachedTokens: 0 });
  });

  it('holds back a usage-only chunk in the middle of a read and keeps the events around it byte for byte', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    const before = delta('a') + delta('b');
    const after = 'data: [DONE]\n\n';
    expect(meter.push(Buffer.from(before + usage + after)).toString()).toBe(before + after);
    expect(meter.sawDone).toBe(true);
  });

  it('forwards events framed with \\r\\n as they complete, and reads their usage', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', false);
    const crlf = (data: unknown) => `data: ${JSON.stringify(data)}\r\n\r\n`;
    const first = crlf({ choices: [{ index: 0, delta: { content: 'Hi' } }] });
    expect(meter.push(Buffer.from(first)).toString()).toBe(first);
    const rest = crlf({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }) + 'data: [DONE]\r\n\r\n';
    expect(meter.push(Buffer.from(rest)).toString()).toBe(rest);
    expect(meter.usage).toEqual({ promptTokens: 3, completionTokens: 1, cachedTokens: 0 });
    expect(meter.sawDone).toBe(true);
  });

  it('counts \\r\\n-framed text when usage never comes', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    const crlf = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\r\n\r\n`;
    meter.push(Buffer.from(crlf('Hello') + crlf(' world')));
    expect(meter.completionTokens()).toBe(2);
  });

  it('holds [DONE] back while usage the client asked for has not come', () => {
    const asked = new OpenAIStreamMeter('gpt-4o', false);
    expect(asked.push(Buffer.from(delta('Hi') + 'data: [DONE]\n\n')).toString()).toBe(delta('Hi'));
    expect(asked.sawDone).toBe(true);
    expect(asked.doneSent).toBe(false);
    const reported = new OpenAIStreamMeter('gpt-4o', false);
    expect(reported.push(Buffer.from(delta('Hi') + usage + 'data: [DONE]\n\n')).toString()).toBe(delta('Hi') + usage + 'data: [DONE]\n\n');
    expect(reported.doneSent).toBe(true);
  });

  it('does not take a [DONE] inside generated text for the end of the stream', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', false);
    meter.push(Buffer.from(delta('the server sends data: [DONE] last')));
    expect(meter.sawDone).toBe(false);
  });

  it('counts tool-call arguments plus a flat amount per call', () => {
    const meter = new OpenAIStreamMeter('gpt-4o', true);
    meter.push(Buffer.from(event({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '' } }] } }] })));
    meter.push(Buffer.from(event({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] } }] })));
    expect(meter.completionTokens()).toBeGreaterThan(7);
  });
});

describe('usage from JSON bytes', () => {
  it('parses only the usage object, with nested objects and strings holding braces', async () => {
    const { usageFromJsonBytes } = await import('./usage.js');
    const body = Buffer.from(JSON.stringify({ choices: [{ message: { content: 'a "usage": {x} }' } }], usage: { prompt_tokens: 4, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1 } } }));
    expect(usageFromJsonBytes(body)).toEqual({ promptTokens: 4, completionTokens: 2, cachedTokens: 1 });
    expect(usageFromJsonBytes(Buffer.from('{"choices":[]}'))).toBeNull();
    expect(usageFromJsonBytes(Buffer.from('{"usage": null}'))).toBeNull();
  });
});
