import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../formats/openai/chat.js';
import type { GeminiRequest } from '../../formats/gemini/types.js';
import { loadCases } from './fixtures.js';
import { chatToGeminiRequest, type GeminiRequestOptions } from './request.js';

interface Case {
  description: string;
  options: GeminiRequestOptions;
  input: ChatRequest;
  expected: GeminiRequest;
}

describe('chat request to Gemini request', () => {
  it.each(loadCases<Case>('request'))('%s', (_file, fx) => {
    expect(chatToGeminiRequest(fx.input, fx.options), fx.description).toEqual(fx.expected);
  });
});
