import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../../errors.js';
import type { ChatRequest } from '../openai/chat.js';
import { responsesToChat } from './to-chat.js';

const load = <T>(folder: string) => {
  const dir = new URL(`./fixtures/${folder}/`, import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as T }));
};

const cases = load<{ input: Record<string, unknown>; expected: ChatRequest; expectedDropped?: string[] }>('to-chat');
const errorCases = load<{ input: Record<string, unknown>; expected: { status: number; type: string; code: string; mentions: string } }>('to-chat-errors');

describe('Responses request -> ChatRequest', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('$file', ({ c }) => {
    const dropped: string[] = [];
    expect(responsesToChat(c.input, dropped)).toEqual(c.expected);
    // Hints and hosted tools are left out, and named (X-Switchyard-Dropped).
    expect(dropped).toEqual(c.expectedDropped ?? []);
  });
});

describe('Responses requests a chat upstream cannot serve are refused with a 400', () => {
  it('has fixtures', () => expect(errorCases.length).toBeGreaterThan(0));

  it.each(errorCases)('$file', ({ c }) => {
    let thrown: unknown;
    try {
      responsesToChat(c.input);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RelayError);
    const err = thrown as RelayError;
    expect({ status: err.status, type: err.type, code: err.code }).toEqual({ status: c.expected.status, type: c.expected.type, code: c.expected.code });
    expect(err.local).toBe(true);
    expect(err.message).toContain(c.expected.mentions);
    // Chinese, for the console and the client alike.
    expect(err.message).toMatch(/[\u4e00-\u9fff]/);
  });
});
