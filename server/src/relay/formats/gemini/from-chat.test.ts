import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../openai/chat.js';
import { chatToGemini } from './from-chat.js';
import type { GeminiResponse } from './types.js';

interface Case {
  description: string;
  input: ChatCompletion;
  expected: GeminiResponse;
}

const dir = new URL('./fixtures/from-chat/', import.meta.url);
const cases = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('chat completion to Gemini answer', () => {
  it.each(cases)('%s', (file) => {
    const fx = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Case;
    expect(chatToGemini(fx.input), fx.description).toEqual(fx.expected);
  });
});
