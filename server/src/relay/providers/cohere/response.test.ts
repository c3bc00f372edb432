import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../formats/openai/chat.js';
import type { ParsedUpstreamError } from '../../formats/openai/errors.js';
import { parseCohereError } from './errors.js';
import { loadCases } from './fixtures.js';
import { cohereToChatCompletion } from './response.js';
import type { CohereChatResponse } from './types.js';

interface ResponseCase {
  description: string;
  model: string;
  input: CohereChatResponse;
  expected: ChatCompletion;
}

interface ErrorCase {
  description: string;
  status: number;
  body: string;
  expected: ParsedUpstreamError;
}

describe('Cohere v2 chat answer -> ChatCompletion', () => {
  const cases = loadCases<ResponseCase>('response');
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (_file, fx) => {
    expect(cohereToChatCompletion(fx.input, fx.model, { created: 1_700_000_000 }), fx.description).toEqual(fx.expected);
  });
});

describe('Cohere error bodies', () => {
  it.each(loadCases<ErrorCase>('errors'))('%s', (_file, fx) => {
    expect(parseCohereError(fx.status, fx.body), fx.description).toEqual(fx.expected);
  });
});
