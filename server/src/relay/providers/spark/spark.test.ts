import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt } from '../../types.js';
import { parseSparkError } from './errors.js';
import { parseSparkKey } from './key.js';
import { chatToSparkRequest } from './request.js';
import { sparkFramesToCompletion } from './response.js';
import type { SparkFrame } from './types.js';
import { sparkVersion, versionOf } from './versions.js';
import { sparkWire } from './wire.js';

const FIXTURES = new URL('./fixtures/chat/', import.meta.url);
const frames = (name: string) => (JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as { frames: SparkFrame[] }).frames;
/** The frames as the WebSocket exchange hands a stream on: one SSE event each. */
const sse = (name: string) => frames(name).map((f) => `data: ${JSON.stringify(f)}\n\n`).join('');

function decode(text: string, size: number) {
  const decoder = sparkWire.streamDecoder({ call: { model: 'm' } } as never);
  const bytes = Buffer.from(text);
  const chunks: ChatChunk[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(...decoder.push(bytes.subarray(i, i + size)));
  chunks.push(...decoder.finish());
  return { chunks, decoder };
}

const textOf = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

const V35 = { domain: 'generalv3.5', path: '/v3.5/chat' };
const LITE = { domain: 'lite', path: '/v1.1/chat' };

describe('Spark versions', () => {
  it.each([
    ['v1.1', 'lite', '/v1.1/chat'],
    ['v2.1', 'generalv2', '/v2.1/chat'],
    ['v3.1', 'generalv3', '/v3.1/chat'],
    ['v3.5', 'generalv3.5', '/v3.5/chat'],
    ['v4.0', '4.0Ultra', '/v4.0/chat'],
    ['max-32k', 'max-32k', '/chat/max-32k'],
    ['pro-128k', 'pro-128k', '/chat/pro-128k'],
    ['4.0Ultra', '4.0Ultra', '/v4.0/chat'],
    ['spark-max', 'generalv3.5', '/v3.5/chat'],
    ['v5.0', 'generalv5.0', '/v5.0/chat'],
  ])('%s is the domain %s at %s', (name, domain, path) => {
    expect(versionOf(name)).toEqual({ domain, path });
  });

  it('takes the client’s api-version, then the model name, then the channel’s version, then Lite', () => {
    expect(sparkVersion('v4.0', 'SparkDesk-v3.5', 'v2.1')).toEqual({ domain: '4.0Ultra', path: '/v4.0/chat' });
    expect(sparkVersion(undefined, 'SparkDesk-v3.5', 'v2.1')).toEqual(V35);
    expect(sparkVersion(undefined, 'SparkDesk-max-32k', 'v2.1')).toEqual({ domain: 'max-32k', path: '/chat/max-32k' });
    expect(sparkVersion(undefined, 'generalv3', 'v2.1')).toEqual({ domain: 'generalv3', path: '/v3.1/chat' });
    expect(sparkVersion(undefined, 'SparkDesk', 'v2.1')).toEqual({ domain: 'generalv2', path: '/v2.1/chat' });
    expect(sparkVersion(undefined, 'my-alias', '')).toEqual(LITE);
    // An Azure-style api-version is not a Spark version: the model decides.
    expect(sparkVersion('2024-06-01', 'SparkDesk-v3.5', 'v2.1')).toEqual(V35);
  });
});

describe('Spark key', () => {
  it('reads appId|apiSecret|apiKey and refuses anything else in words that name the format', () => {
    expect(parseSparkKey(' app | secret | key ')).toEqual({ appId: 'app', apiSecret: 'secret', apiKey: 'key' });
    for (const bad of ['app|secret', 'app||key', 'a|b|c|d']) expect(() => parseSparkKey(bad)).toThrow(/APPID\|APISecret\|APIKey/);
  });
});

describe('ChatRequest -> Spark request frame', () => {
  const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
    model: 'SparkDesk-v3.5',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi ' }, { type: 'text', text: 'there' }] },
    ],
    ...extra,
  });

  it('maps the turns and the chat parameters; user becomes the uid', () => {
    expect(chatToSparkRequest(req({ temperature: 0 }), V35).parameter.chat.temperature).toBe(0.01);
    expect(chatToSparkRequest(req({ temperature: 0.3, max_tokens: 64, top_k: 4, user: 'u'.repeat(40) }), V35)).toEqual({
      header: { app_id: '', uid: 'u'.repeat(32) },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.3, max_tokens: 64, top_k: 4 } },
      payload: { message: { text: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi there' }] } },
    });
  });

  it('offers tools as functions where Spark takes them, none when told none, and refuses them on Lite', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    expect(chatToSparkRequest(req({ tools }), V35).payload.functions).toEqual({ text: [{ name: 'get_weather', description: 'Weather', parameters: tools[0].function.parameters }] });
    expect(chatToSparkRequest(req({ tools, tool_choice: 'none' }), V35).payload.functions).toBeUndefined();
    expect(() => chatToSparkRequest(req({ tools }), LITE)).toThrow(/不支持函数调用/);
  });

  it('refuses a history with tool calls or tool results (Spark has no turn for them)', () => {
    const call = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    expect(() => chatToSparkRequest(req({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [call] }] }), V35)).toThrow(/函数调用/);
    expect(() => chatToSparkRequest(req({ messages: [{ role: 'tool', content: 'r', tool_call_id: 'c1' }] }), V35)).toThrow(/函数调用的结果/);
  });

  it('refuses, through the wire, what Spark cannot honour (400), and puts overrides among the chat parameters', () => {
    const up = { call: { mode: 'chat', model: 'SparkDesk-v3.5', stream: false }, upstreamModel: 'SparkDesk-v3.5', channel: { other: 'v2.1', paramOverride: { auditing: 'default' } } } as unknown as Attempt;
    for (const extra of [{ top_p: 0.5 }, { stop: ['x'] }, { n: 2 }, { response_format: { type: 'json_object' as const } }, { tool_choice: 'required' as const }]) {
      expect(() => sparkWire.encode(req(extra) as never, up)).toThrow(expect.objectContaining({ status: 400 }));
    }
    expect(sparkWire.encode(req({ top_p: 1 }) as never, up)).toMatchObject({ parameter: { chat: { domain: 'generalv3.5', auditing: 'default' } } });
  });
});

describe('Spark frames -> the canonical answer (the stand-in’s fixtures)', () => {
  it('joins the frames of an answer, with the last frame’s usage and the sid as id', () => {
    expect(sparkFramesToCompletion(frames('good'), 'm')).toMatchObject({
      id: 'cht000b7e1f@dx18c0a1b2c3d4e5f6',
      choices: [{ message: { role: 'assistant', content: 'Hello from the Spark mock.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    });
  });

  it('reads a function call as the one tool call', () => {
    const answer = sparkFramesToCompletion(frames('function-call'), 'm');
    expect(answer.choices[0]).toMatchObject({ message: { content: null, tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"合肥"}' } }] }, finish_reason: 'tool_calls' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 93, completion_tokens: 18 });
  });

  it.each([3, 1 << 20])('streams text, the finish and one closing usage chunk (pieces of %i bytes)', (size) => {
    const { chunks, decoder } = decode(sse('good'), size);
    expect(textOf(chunks)).toBe('Hello from the Spark mock.');
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 7 } });
    expect(chunks.filter((c) => c.usage)).toHaveLength(1);
    expect(decoder.failure).toBeNull();
  });

  it('streams a function call as one tool call and finishes with tool_calls', () => {
    const { chunks } = decode(sse('function-call'), 7);
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"合肥"}' } }]);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('tool_calls');
  });

  it('ends a stream at an error frame with a failure, after what came before it', () => {
    const { chunks, decoder } = decode(sse('output-audit'), 11);
    expect(textOf(chunks)).toBe('Hello from');
    expect(decoder.failure?.message).toContain('10014');
    expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(false);
  });

  it('finishes a stream without usage with no usage chunk', () => {
    const { chunks } = decode(sse('no-usage'), 1 << 20);
    expect(textOf(chunks)).toBe('Hello from the Spark mock.');
    expect(chunks.some((c) => c.usage)).toBe(false);
  });
});

describe('Spark errors', () => {
  const frame = (name: string) => JSON.stringify(frames(name)[0]);

  it('reads an error frame’s code: the key’s fault, the account’s, the rate, the content', () => {
    expect(parseSparkError(401, frame('app-mismatch'))).toMatchObject({ code: '10313', type: 'authentication_error', credentials: true });
    expect(parseSparkError(403, frame('no-license'))).toMatchObject({ code: '11200', type: 'insufficient_quota', credentials: true });
    expect(parseSparkError(429, frame('rate-limited'))).toMatchObject({ code: '11202', type: 'rate_limit_error' });
    expect(parseSparkError(429, frame('rate-limited')).credentials).toBeUndefined();
    expect(parseSparkError(400, frame('input-audit'))).toMatchObject({ code: '10013', message: expect.stringContaining('inappropriate') });
  });

  it('reads a refused handshake: a bad signature is the key’s fault, a stale date is not', () => {
    expect(parseSparkError(401, '{"message":"HMAC signature does not match"}')).toEqual({ message: 'HMAC signature does not match', type: 'authentication_error', code: '', credentials: true });
    expect(parseSparkError(403, '{"message":"HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication"}').credentials).toBeUndefined();
    expect(parseSparkError(502, '<html>bad gateway</html>')).toEqual({ message: 'bad response status code 502', type: 'api_error', code: '' });
  });
});
