import { describe, expect, it } from 'vitest';
import type { ClientCall } from '../../types.js';
import { responsesClient } from './client.js';

const call = (json: Record<string, unknown>): ClientCall => ({
  format: 'responses',
  mode: 'chat',
  model: String(json.model),
  stream: json.stream === true,
  json,
  clientWantsStreamUsage: true,
  maxTokens: 0,
});

describe('the Responses client-format module', () => {
  it('converts the request to the canonical chat request', () => {
    expect(responsesClient.toCanonical(call({ model: 'gpt-4o', input: 'hi', stream: true }))).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('reports a failure mid-stream as error + response.failed with the documented code', () => {
    const enc = responsesClient.streamEncoder(call({ model: 'gpt-4o', input: 'hi', stream: true }), 0);
    const out = enc.error(429, 'slow down');
    expect(out).toContain('event: error\ndata: {"type":"error","sequence_number":2,"code":"rate_limit_exceeded","message":"slow down","param":null}');
    expect(out).toContain('event: response.failed');
  });

  it('passes a Responses stream through unchanged, adding nothing, its terminal event at the end of the answer', () => {
    const meter = responsesClient.streamMeter(call({ model: 'gpt-4o', input: 'hi', stream: true }));
    const bytes = Buffer.from('event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":4,"output_tokens":2}}}\n\n');
    // Held for the end: the call is settled before the client can take the stream as finished.
    expect(meter.push(bytes).length).toBe(0);
    expect(meter.finish(false)).toEqual(bytes);
    expect(meter.usage).toEqual({ promptTokens: 4, completionTokens: 2, cachedTokens: 0 });
  });

  it('ends a stream cut before response.completed with a whole error event, never half an event', () => {
    const meter = responsesClient.streamMeter(call({ model: 'gpt-4o', input: 'hi', stream: true }));
    const first = 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"Hi"}\n\n';
    const forwarded = meter.push(Buffer.from(`${first}event: response.output_text.delta\ndata: {"type":"resp`)).toString();
    expect(forwarded).toBe(first);
    const end = meter.finish(true).toString();
    expect(end).toMatch(/^event: error\ndata: \{"type":"error","code":"server_error"/);
    expect(end.endsWith('\n\n')).toBe(true);
  });

  it('writes errors in OpenAI’s shape', () => {
    expect(JSON.parse(responsesClient.errorBody({ status: 400, message: '缺少必填字段 input', type: 'invalid_request_error', code: 'missing_required_parameter' }))).toEqual({
      error: { message: '缺少必填字段 input', type: 'invalid_request_error', param: null, code: 'missing_required_parameter' },
    });
  });
});
