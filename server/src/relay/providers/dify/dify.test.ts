import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import { parseDifyError } from './errors.js';
import { chatToDifyRequest } from './request.js';
import { difyToChatCompletion } from './response.js';
import { decodeDataUrl } from './upload.js';
import { DifyChunkDecoder, difyWire } from './wire.js';
import type { Attempt } from '../../types.js';

const fixture = (route: string, name: string) => readFileSync(new URL(`./fixtures/${route}/${name}`, import.meta.url), 'utf8');
const body = (name: string) => JSON.stringify((JSON.parse(fixture('chat-messages', name)) as { body: unknown }).body);

/** Feeds a stream fixture in pieces of `size` bytes (splitting events and characters), as sockets deliver it. */
function decode(name: string, size: number, showProgress = false) {
  const decoder = new DifyChunkDecoder('dify', showProgress, 1);
  const bytes = Buffer.from(fixture('chat-messages', name));
  const chunks: ChatChunk[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(...decoder.push(bytes.subarray(i, i + size)));
  chunks.push(...decoder.finish());
  return { chunks, decoder };
}

const text = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
const reasoning = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('');

describe('Dify stream events -> ChatChunks', () => {
  it.each([7, 1 << 20])('reads message events, message_end’s usage and hides workflow progress (pieces of %i bytes)', (size) => {
    const { chunks, decoder } = decode('default.sse', size);
    expect(text(chunks)).toBe('Hello from the Dify mock.');
    expect(reasoning(chunks)).toBe('');
    expect(chunks[0]).toMatchObject({ id: '5e52ce04-874b-4d27-9045-b3bc80def685', choices: [{ delta: { role: 'assistant' } }] });
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } });
    expect(decoder.failure).toBeNull();
  });

  it('shows workflow and node progress as reasoning text when the channel asks for it', () => {
    const { chunks } = decode('default.sse', 64, true);
    expect(reasoning(chunks)).toBe('Workflow: dfjasklfjdslag\nNode: 开始\nNode: 开始 succeeded\nNode: LLM\nNode: LLM succeeded\nWorkflow: dfjasklfjdslag succeeded\n');
    expect(text(chunks)).toBe('Hello from the Dify mock.');
  });

  it('ends without usage when message_end has none, stops at an error event, and leaves a cut stream open', () => {
    const none = decode('no-usage.sse', 1 << 20);
    expect(none.chunks.some((c) => c.usage)).toBe(false);
    expect(none.chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    const failed = decode('stream-error.sse', 16);
    expect(text(failed.chunks)).toBe('Hello from the');
    expect(failed.decoder.failure).toEqual({ type: 'upstream_error', message: '[openai] Error: Rate limit reached for requests' });
    const cut = decode('cut.sse', 16);
    expect(text(cut.chunks)).toBe('Hello from the');
    expect(cut.chunks.some((c) => c.usage || c.choices[0]?.finish_reason)).toBe(false);
  });
});

describe('Dify blocking answers and errors', () => {
  it('reads the answer, its message id and metadata.usage', () => {
    expect(difyToChatCompletion(JSON.parse(body('default.json')), 'dify', 5)).toEqual({
      id: '9da23599-e713-473b-982c-4328d4f5c78a',
      object: 'chat.completion',
      created: 1705407629,
      model: 'dify',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the Dify mock.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
    });
    expect(difyToChatCompletion(JSON.parse(body('no-usage.json')), 'dify').usage).toBeUndefined();
  });

  it.each([
    ['errors/unauthorized.json', 401, 'authentication_error', 'unauthorized', true],
    ['chat-messages/quota-exceeded.json', 400, 'invalid_request_error', 'provider_quota_exceeded', true],
    ['chat-messages/bad-request.json', 400, 'invalid_request_error', 'invalid_param', false],
    ['chat-messages/server-error.json', 500, 'api_error', 'internal_server_error', false],
  ])('%s: status %i reads as %s (%s), credentials %s', (file, status, type, code, credentials) => {
    const [route, name] = file.split('/');
    const parsed = parseDifyError(status, JSON.stringify((JSON.parse(fixture(route, name)) as { body: unknown }).body));
    expect(parsed).toMatchObject({ type, code });
    expect(parsed.credentials === true).toBe(credentials);
  });

  it('never echoes a body that is not Dify’s', () => {
    expect(parseDifyError(502, '<html>bad gateway</html>')).toEqual({ message: 'bad response status code 502', type: 'api_error', code: '' });
  });
});

describe('Dify requests', () => {
  const req = (extra: Partial<ChatRequest>): ChatRequest => ({ model: 'dify', messages: [{ role: 'user', content: 'hi' }], ...extra });

  it('flattens the conversation into one query, images into files', () => {
    const out = chatToDifyRequest(
      req({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://x.test/cat.png' } }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        ],
      }),
      true,
      'u-1',
    );
    expect(out).toEqual({
      inputs: {},
      query: 'SYSTEM: \nBe brief.\nUSER: \nHello\nASSISTANT: \nHi!\nUSER: \nWhat is this?\n',
      response_mode: 'streaming',
      user: 'u-1',
      auto_generate_name: false,
      files: [
        { type: 'image', transfer_method: 'remote_url', url: 'https://x.test/cat.png' },
        { type: 'image', transfer_method: 'local_file', upload: 'data:image/png;base64,iVBORw0KGgo=' },
      ],
    });
  });

  it('sends the client’s user, or one made per call', () => {
    expect(chatToDifyRequest(req({ user: 'alice' }), false).user).toBe('alice');
    const made = chatToDifyRequest(req({}), false).user;
    expect(made).toMatch(/^switchyard-[0-9a-f-]{36}$/);
    expect(chatToDifyRequest(req({}), false).user).not.toBe(made);
  });

  it('refuses what a Dify app cannot take from the request, and ignores its model parameters', () => {
    const up = { call: { stream: false }, channel: { paramOverride: {} } } as unknown as Attempt;
    expect(() => difyWire.encode(req({ tools: [{ type: 'function', function: { name: 'f' } }] }), up)).toThrow(/工具/);
    expect(() => difyWire.encode(req({ stop: ['x'] }), up)).toThrow(/stop/);
    expect(() => difyWire.encode(req({ n: 2 }), up)).toThrow(/n/);
    expect(difyWire.encode(req({ max_tokens: 10, temperature: 0.2 }), up)).toMatchObject({ query: 'USER: \nhi\n', response_mode: 'blocking' });
    expect(() => chatToDifyRequest(req({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] }] }), false)).toThrow(/http/);
  });

  it('decodes base64 data URLs and refuses others', () => {
    expect(decodeDataUrl('data:image/png;base64,aGk=')).toEqual({ mime: 'image/png', bytes: Buffer.from('hi') });
    expect(() => decodeDataUrl('data:image/png,hi')).toThrow(/base64/);
  });
});
