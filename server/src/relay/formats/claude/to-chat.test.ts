import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../openai/chat.js';
import { claudeToChat } from './to-chat.js';
import type { ClaudeRequest } from './types.js';

const dir = new URL('./fixtures/to-chat/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('Claude request -> ChatRequest', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (file) => {
    const { input, expected } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { input: ClaudeRequest; expected: ChatRequest };
    expect(claudeToChat(input)).toEqual(expected);
  });
});
