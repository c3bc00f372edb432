import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startResponsesMock, type ResponsesMock } from '../../../test/mocks/openai-responses.js';
import { countTextTokens } from '../../tokenizer.js';
import { ResponsesStreamMeter, responsesUsageFromJson } from './meter.js';

/*
 * The Responses mock upstream behaves like OpenAI for the official SDK (so its fixtures are realistic), and the
 * passthrough meter reads usage — or counts output — from what it sends.
 */

let mock: ResponsesMock;
let sdk: OpenAI;

beforeAll(async () => {
  mock = await startResponsesMock({ key: 'sk-upstream' });
  sdk = new OpenAI({ apiKey: 'sk-upstream', baseURL: `${mock.url}/v1`, maxRetries: 0 });
});

afterAll(() => mock.close());

async function post(body: unknown, key = 'sk-upstream'): Promise<Response> {
  return fetch(`${mock.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Streams a response body through the meter the way the relay does, noting whether the upstream cut it. */
async function meterStream(res: Response): Promise<{ meter: ResponsesStreamMeter; bytes: Buffer; cut: boolean }> {
  const meter = new ResponsesStreamMeter('gpt-4.1-mini');
  const parts: Buffer[] = [];
  let cut = false;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parts.push(meter.push(Buffer.from(chunk)));
  } catch {
    cut = true;
  }
  meter.finish();
  return { meter, bytes: Buffer.concat(parts), cut };
}

describe('the Responses mock upstream, read by the openai SDK', () => {
  it('answers JSON with output_text and usage', async () => {
    const resp = await sdk.responses.create({ model: 'gpt-4.1-mini', input: 'hi' });
    expect(resp.output_text).toBe('Hello from the mock Responses upstream.');
    expect(resp.usage?.input_tokens).toBe(37);
    const seen = mock.requests.at(-1)!;
    expect(seen.path).toBe('/v1/responses');
    expect(seen.json).toMatchObject({ model: 'gpt-4.1-mini', input: 'hi' });
  });

  it('streams text and a function call with streamed arguments', async () => {
    const text = await sdk.responses.stream({ model: 'gpt-4.1-mini', input: 'hi' }).finalResponse();
    expect(text.output_text).toBe('Hello from the mock Responses upstream.');
    expect(text.usage?.total_tokens).toBe(48);
    const call = await sdk.responses.stream({ model: 'mock-tool-call', input: 'weather?' }).finalResponse();
    const fc = call.output.find((o) => o.type === 'function_call');
    expect(fc && JSON.parse(fc.arguments)).toEqual({ city: 'Paris' });
  });

  it.each([
    ['mock-bad-request', 400, 'invalid_value'],
    ['mock-rate-limited', 429, 'rate_limit_exceeded'],
    ['mock-server-error', 500, null],
    ['mock-unauthorized', 401, 'invalid_api_key'],
  ])('%s fails with %i in OpenAI’s error shape', async (model, status, code) => {
    const err = (await sdk.responses.create({ model, input: 'hi' }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.status).toBe(status);
    expect(err.code ?? null).toBe(code);
  });

  it('checks the key and the required fields', async () => {
    const wrongKey = await post({ model: 'gpt-4.1-mini', input: 'hi' }, 'sk-wrong');
    expect(wrongKey.status).toBe(401);
    const noInput = await post({ model: 'gpt-4.1-mini' });
    expect(noInput.status).toBe(400);
    expect(await noInput.json()).toEqual({
      error: { message: "Missing required parameter: 'input'.", type: 'invalid_request_error', param: 'input', code: 'missing_required_parameter' },
    });
    const limited = await post({ model: 'mock-rate-limited', input: 'hi', stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
  });
});

describe('the passthrough meter on the mock’s streams', () => {
  it('reads usage from response.completed', async () => {
    const { meter, cut } = await meterStream(await post({ model: 'gpt-4.1-mini', input: 'hi', stream: true }));
    expect(cut).toBe(false);
    expect(meter.sawStop).toBe(true);
    expect(meter.usage).toEqual({ promptTokens: 37, completionTokens: 11, cachedTokens: 0 });
    expect(meter.firstTokenAt).toBeGreaterThan(0);
  });

  it('counts the output when the upstream reports no usage', async () => {
    const { meter } = await meterStream(await post({ model: 'mock-no-usage', input: 'hi', stream: true }));
    expect(meter.sawStop).toBe(true);
    expect(meter.usage).toBeNull();
    expect(meter.counted()).toBe(countTextTokens('Hello from the mock Responses upstream.', 'gpt-4.1-mini'));
  });

  it('charges only what was delivered when the upstream cuts the stream mid-event', async () => {
    const { meter, bytes, cut } = await meterStream(await post({ model: 'mock-cut', input: 'hi', stream: true }));
    expect(cut).toBe(true);
    expect(bytes.toString()).toContain('"delta":" the"');
    expect(meter.sawStop).toBe(false);
    expect(meter.usage).toBeNull();
    expect(meter.counted()).toBe(countTextTokens('Hello from the', 'gpt-4.1-mini'));
  });

  it('reads usage from JSON answers, cached tokens included', async () => {
    const good = Buffer.from(await (await post({ model: 'gpt-4.1-mini', input: 'hi' })).arrayBuffer());
    expect(responsesUsageFromJson(good)).toEqual({ promptTokens: 37, completionTokens: 11, cachedTokens: 0 });
    const cached = Buffer.from(await (await post({ model: 'mock-cached', input: 'hi' })).arrayBuffer());
    expect(responsesUsageFromJson(cached)).toEqual({ promptTokens: 2048, completionTokens: 120, cachedTokens: 1920 });
    const none = Buffer.from(await (await post({ model: 'mock-no-usage', input: 'hi' })).arrayBuffer());
    expect(responsesUsageFromJson(none)).toBeNull();
  });
});
