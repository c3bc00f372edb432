import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatUsage } from '../openai/chat.js';
import { ChatToGeminiStream } from './from-chat.js';
import type { GeminiResponse } from './types.js';

interface Case {
  description: string;
  chunks: ChatChunk[];
  usage?: ChatUsage;
  expected: GeminiResponse[];
}

const dir = new URL('./fixtures/stream/', import.meta.url);
const cases = readdirSync(dir).filter((f) => f.endsWith('.json'));

/** Every event must be framed as Gemini frames it: `data: <json>\r\n\r\n`. */
function parseEvents(text: string): GeminiResponse[] {
  const events = text.split('\r\n\r\n');
  expect(events.pop()).toBe('');
  return events.map((e) => {
    expect(e.startsWith('data: ')).toBe(true);
    return JSON.parse(e.slice(6)) as GeminiResponse;
  });
}

describe('chat chunks to Gemini stream', () => {
  it.each(cases)('%s', (file) => {
    const fx = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Case;
    const stream = new ChatToGeminiStream();
    let text = '';
    for (const chunk of fx.chunks) text += stream.push(chunk);
    text += stream.finish(fx.usage);
    expect(parseEvents(text), fx.description).toEqual(fx.expected);
    expect(stream.finish()).toBe('');
  });
});

describe('text events written without serialising the whole event', () => {
  const texts = ['plain', 'quote " and \\ backslash', 'line\nbreak', '中文 🎉', '\u2028', '\u0000'];
  const chunk = (content: string, id: string, model: string): ChatChunk => ({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }] });

  it.each([
    ['with a model and an id', 'chatcmpl-1', 'gemini-x'],
    ['without either', '', ''],
    ['with a model only', '', 'm "quoted"'],
  ])('are the bytes the whole event gives, %s', (_, id, model) => {
    const stream = new ChatToGeminiStream();
    for (const text of texts) {
      const event: Record<string, unknown> = { candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] };
      if (model) event.modelVersion = model;
      if (id) event.responseId = id;
      expect(stream.push(chunk(text, id, model))).toBe(`data: ${JSON.stringify(event)}\r\n\r\n`);
    }
  });
});
