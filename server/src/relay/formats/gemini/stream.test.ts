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
