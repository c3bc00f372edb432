import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../openai/chat.js';
import { geminiToChat } from './to-chat.js';
import type { GeminiRequest } from './types.js';

interface Case {
  description: string;
  model: string;
  stream: boolean;
  input: GeminiRequest;
  expected: ChatRequest;
}

const dir = new URL('./fixtures/to-chat/', import.meta.url);
const cases = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('Gemini request to chat request', () => {
  it.each(cases)('%s', (file) => {
    const fx = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Case;
    expect(geminiToChat(fx.input, fx.model, fx.stream), fx.description).toEqual(fx.expected);
  });
});
