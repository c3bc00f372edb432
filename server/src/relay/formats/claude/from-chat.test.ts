import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../openai/chat.js';
import { chatToClaude } from './from-chat.js';
import type { ClaudeResponse } from './types.js';

const dir = new URL('./fixtures/from-chat/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('ChatCompletion -> Claude message', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (file) => {
    const { model, input, expected } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
      model: string;
      input: ChatCompletion;
      expected: ClaudeResponse;
    };
    expect(chatToClaude(input, model)).toEqual(expected);
  });
});
