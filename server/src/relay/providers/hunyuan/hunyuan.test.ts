import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import { hunyuanErrorStatus, parseHunyuanError } from './errors.js';
import { parseTencentKey } from './key.js';
import { chatToHunyuanRequest } from './request.js';
import { hunyuanToChatCompletion } from './response.js';
import { HunyuanChunkDecoder } from './wire.js';

const FIXTURES = new URL('../../../test/fixtures/hunyuan/chat/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

/** Feeds a stream fixture in pieces of `size` bytes (splitting events and characters), as sockets deliver it. */
function decode(sse: string, size: number) {
  const decoder = new HunyuanChunkDecoder('m', 1);
  const bytes = Buffer.from(sse);
  const chunks: ChatChunk[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(...decoder.push(bytes.subarray(i, i + size)));
  chunks.push(...decoder.finish());
  return { chunks, decoder };
}

const text = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('Hunyuan stream -> ChatChunks (the stand-in’s fixtures)', () => {
  it.each([5, 1 << 20])('reads text, the finish and one closing usage chunk (pieces of %i bytes)', (size) => {
    const { chunks, decoder } = decode(fixture('stream.sse'), size);
    expect(text(chunks)).toBe('Hello from the Hunyuan mock.');
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.filter((c) => c.usage)).toHaveLength(1);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 8, total_tokens: 12 } });
    expect(decoder.failure).toBeNull();
  });

  it('joins a tool call streamed in pieces into one call', () => {
    const { chunks } = decode(fixture('tool-call.sse'), 9);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'call_cq3sa9b2c3m0mdk7nrqg', function: { name: 'get_weather' } });
    expect(calls.every((c) => c.index === 0)).toBe(true);
    expect(JSON.parse(calls.map((c) => c.function?.arguments ?? '').join(''))).toEqual({ city: '深圳' });
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('tool_calls');
  });

  it('keeps the prompt tokens of a stream cut before its end, and reports a failed generation', () => {
    const cut = decode(fixture('cut.sse'), 64);
    expect(text(cut.chunks)).toBe('Hello from');
    expect(cut.chunks.some((c) => c.usage || c.choices[0]?.finish_reason)).toBe(false);
    expect(cut.decoder.partialUsage()).toEqual({ promptTokens: 4, completionTokens: 0, cachedTokens: 0 });
    const failed = decode(fixture('stream-error.sse'), 64);
    expect(failed.decoder.failure).toEqual({ type: 'upstream_error', message: '请求模型超时' });
  });

  it('ends a stream without usage with the finish only, and reads moderation as content_filter', () => {
    const { chunks } = decode(fixture('no-usage.sse'), 1 << 20);
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.some((c) => c.usage)).toBe(false);
    const sensitive = decode('data: {"Choices":[{"Delta":{"Content":"x"},"FinishReason":"sensitive"}],"Usage":{"PromptTokens":1,"CompletionTokens":1}}\n\n', 1 << 20);
    expect(sensitive.chunks.at(-2)?.choices[0].finish_reason).toBe('content_filter');
  });
});

describe('Hunyuan whole answers and errors', () => {
  it('reads the Response as a ChatCompletion', () => {
    const answer = JSON.parse(fixture('tool-call.json')) as { Response: Parameters<typeof hunyuanToChatCompletion>[0] };
    expect(hunyuanToChatCompletion(answer.Response, 'm')).toMatchObject({
      id: 'a7b6c5d4-e3f2-4190-8a7b-6c5d4e3f2a10',
      created: 1715154323,
      choices: [{ message: { content: null, tool_calls: [{ id: 'call_cq3sa9b2c3m0mdk7nrqg', function: { name: 'get_weather' } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 128, completion_tokens: 19, total_tokens: 147 },
    });
  });

  it.each([
    ['400.json', 400, 'invalid_request_error', false],
    ['429.json', 429, 'rate_limit_error', false],
    ['arrearage.json', 403, 'insufficient_quota', true],
  ])('%s: status %i, type %s', (file, status, type, credentials) => {
    const body = fixture(file);
    expect(hunyuanErrorStatus(body)).toBe(status);
    const parsed = parseHunyuanError(status, body);
    expect(parsed.type).toBe(type);
    expect(parsed.credentials === true).toBe(credentials);
    expect(parsed.code).toBe((JSON.parse(body) as { Response: { Error: { Code: string } } }).Response.Error.Code);
  });

  it('tells a refused key from a skewed clock, and an answer from an error', () => {
    const err = (code: string) => JSON.stringify({ Response: { Error: { Code: code, Message: 'm' }, RequestId: 'r' } });
    expect(parseHunyuanError(401, err('AuthFailure.SecretIdNotFound'))).toMatchObject({ type: 'authentication_error', credentials: true });
    expect(parseHunyuanError(401, err('AuthFailure.SignatureExpire')).credentials).toBeUndefined();
    expect(hunyuanErrorStatus(fixture('good.json'))).toBeNull();
    expect(hunyuanErrorStatus('not json')).toBeNull();
    expect(parseHunyuanError(502, '<html>')).toEqual({ message: 'bad response status code 502', type: 'api_error', code: '' });
  });
});

describe('Hunyuan requests and keys', () => {
  const req = (extra: Partial<ChatRequest>): ChatRequest => ({ model: 'x', messages: [{ role: 'user', content: 'hi' }], ...extra });
  const tool = (name: string) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } });

  it('sends images as Contents and requires a call as the one tool offered', () => {
    const out = chatToHunyuanRequest(
      req({ messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] }], tool_choice: 'required', tools: [tool('a')] }),
      'hunyuan-vision',
      false,
    );
    expect(out.Messages[0]).toEqual({ Role: 'user', Contents: [{ Type: 'text', Text: 'what is this' }, { Type: 'image_url', ImageUrl: { Url: 'https://x/y.png' } }] });
    expect(out).toMatchObject({ ToolChoice: 'custom', CustomTool: { Function: { Name: 'a', Parameters: '{"type":"object"}' } } });
    expect(() => chatToHunyuanRequest(req({ tool_choice: 'required', tools: [tool('a'), tool('b')] }), 'm', false)).toThrow(/一个工具/);
    expect(() => chatToHunyuanRequest(req({ tool_choice: { type: 'function', function: { name: 'c' } }, tools: [tool('a')] }), 'm', false)).toThrow(/c/);
  });

  it('takes the key as AppId|SecretId|SecretKey and refuses anything else', () => {
    expect(parseTencentKey(' 1300 | AKID | secret ')).toEqual({ appId: '1300', secretId: 'AKID', secretKey: 'secret' });
    for (const bad of ['AKID|secret', '1300||secret', 'a|b|c|d']) expect(() => parseTencentKey(bad)).toThrow(/AppId\|SecretId\|SecretKey/);
  });
});
