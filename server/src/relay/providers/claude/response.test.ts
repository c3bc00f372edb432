import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../formats/openai/chat.js';
import type { ClaudeResponse } from '../../formats/claude/types.js';
import { parseClaudeError, type ClaudeUpstreamError } from './errors.js';
import { claudeToChatCompletion } from './response.js';

const read = <T>(folder: string) => {
  const dir = new URL(`./fixtures/${folder}/`, import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as T }));
};

describe('Claude message -> ChatCompletion', () => {
  const cases = read<{ input: ClaudeResponse; expected: ChatCompletion }>('response');
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('$file', ({ c }) => {
    expect(claudeToChatCompletion(c.input, 1_700_000_000)).toEqual(c.expected);
  });
});

describe('Claude error bodies -> relay errors', () => {
  const cases = read<{ status: number; body: string; expected: ClaudeUpstreamError }>('errors');
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('$file', ({ c }) => {
    expect(parseClaudeError(c.status, c.body)).toEqual(c.expected);
  });
});
