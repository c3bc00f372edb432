import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatCompletion } from '../../formats/openai/chat.js';
import type { GeminiResponse } from '../../formats/gemini/types.js';
import { loadCases } from './fixtures.js';
import { geminiToChatCompletion, GeminiStreamToChat, parseGeminiEvent } from './response.js';
import { SseSplitter } from './sse.js';

const meta = { id: 'chatcmpl-test', created: 1700000000 };

interface ResponseCase {
  description: string;
  model: string;
  input: GeminiResponse;
  expected: ChatCompletion;
}

interface StreamCase {
  description: string;
  model: string;
  /** The upstream body exactly as Gemini sends it. */
  sse: string;
  expected: ChatChunk[];
}

describe('Gemini answer to chat completion', () => {
  it.each(loadCases<ResponseCase>('response'))('%s', (_file, fx) => {
    expect(geminiToChatCompletion(fx.input, fx.model, meta), fx.description).toEqual(fx.expected);
  });
});

/** Feeds the body in small pieces (splitting events and characters) the way sockets deliver it. */
function convert(fx: StreamCase, pieceSize: number): ChatChunk[] {
  const splitter = new SseSplitter();
  const conv = new GeminiStreamToChat(fx.model, meta);
  const out: ChatChunk[] = [];
  const take = (datas: string[]): void => {
    for (const data of datas) {
      const event = parseGeminiEvent(data);
      if (event) out.push(...conv.push(event));
    }
  };
  const bytes = Buffer.from(fx.sse);
  for (let i = 0; i < bytes.length; i += pieceSize) take(splitter.push(bytes.subarray(i, i + pieceSize)));
  take(splitter.finish());
  out.push(...conv.finish());
  return out;
}

describe('Gemini stream to chat chunks', () => {
  it.each(loadCases<StreamCase>('stream'))('%s', (_file, fx) => {
    expect(convert(fx, 11), fx.description).toEqual(fx.expected);
    expect(convert(fx, 1 << 20), fx.description).toEqual(fx.expected);
  });
});
