import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../formats/openai/chat.js';
import { libraryErrorStatus, parseLibraryError } from './errors.js';
import { chatToLibraryRequest } from './request.js';
import { libraryToChatCompletion } from './response.js';
import type { LibraryAnswer } from './types.js';
import { LibraryChunkDecoder } from './wire.js';

const file = (route: string, name: string) => readFileSync(new URL(`./fixtures/${route}/${name}`, import.meta.url), 'utf8');
const body = (route: string, name: string) => JSON.stringify((JSON.parse(file(route, name)) as { body: unknown }).body);
const REFERENCES = '\n\n参考文档：\n1. [Switchyard overview](https://docs.example.test/overview)\n2. [Channels](https://docs.example.test/channels)\n';

function decode(text: string, size: number) {
  const decoder = new LibraryChunkDecoder('m', 1);
  const bytes = Buffer.from(text);
  const chunks: ChatChunk[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(...decoder.push(bytes.subarray(i, i + size)));
  return { chunks, decoder };
}
const textOf = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('AI Proxy knowledge base', () => {
  it('asks the last user message of the conversation', () => {
    const req = { model: 'x', messages: [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: 'first' }, { role: 'assistant' as const, content: 'a' }, { role: 'user' as const, content: [{ type: 'text', text: 'What is Switchyard?' }] }] };
    expect(chatToLibraryRequest(req, 'gpt-3.5-turbo', 'lib-1', true)).toEqual({ model: 'gpt-3.5-turbo', query: 'What is Switchyard?', libraryId: 'lib-1', stream: true });
    expect(() => chatToLibraryRequest({ model: 'x', messages: [{ role: 'system', content: 's' }] }, 'm', 'lib', false)).toThrow(/用户消息/);
  });

  it('appends the documents to a whole answer as references', () => {
    expect(libraryToChatCompletion(JSON.parse(body('ask', 'default.json')) as LibraryAnswer, 'm').choices[0].message.content).toBe(`Switchyard relays calls to many upstreams.${REFERENCES}`);
    expect(libraryToChatCompletion(JSON.parse(body('ask', 'no-documents.json')) as LibraryAnswer, 'm').choices[0].message.content).toBe('I do not know.');
  });

  it.each([3, 1 << 20])('streams the content, then the references with the finish (lines with or without blank lines, pieces of %i bytes)', (size) => {
    for (const text of [file('ask', 'default.sse'), file('ask', 'default.sse').replace(/\n\n/g, '\n')]) {
      const { chunks, decoder } = decode(text, size);
      chunks.push(...decoder.finish());
      expect(textOf(chunks)).toBe(`Switchyard relays calls to many upstreams.${REFERENCES}`);
      expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
      expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    }
  });

  it('closes a stream that ended without a finishing event', () => {
    const { chunks, decoder } = decode('data: {"content":"partial"}', 4);
    chunks.push(...decoder.finish());
    expect(textOf(chunks)).toBe('partial');
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
  });

  it.each([
    ['unauthorized.json', 401, true],
    ['library-not-found.json', 404, false],
    ['no-balance.json', 500, false],
  ])('reads the refusal in %s (HTTP 200) as status %i', (name, status, credentials) => {
    const text = body('errors', name);
    expect(libraryErrorStatus(text)).toBe(status);
    const parsed = parseLibraryError(status, text);
    expect(parsed.message).toBe((JSON.parse(text) as { message: string }).message);
    expect(parsed.credentials === true).toBe(credentials);
  });

  it('takes an answer for an answer', () => {
    expect(libraryErrorStatus(body('ask', 'default.json'))).toBeNull();
    expect(libraryErrorStatus('data: {"content":"x"}')).toBeNull();
  });
});
