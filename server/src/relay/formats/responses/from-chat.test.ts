import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../openai/chat.js';
import { chatToResponses } from './from-chat.js';

const dir = new URL('./fixtures/from-chat/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('ChatCompletion -> Response object', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('%s', (file) => {
    const { request, input, expected } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
      request: Record<string, unknown>;
      input: ChatCompletion;
      expected: Record<string, unknown>;
    };
    // The fixtures name the response with a fixed id base; the gateway mints a random one (ids.ts).
    expect(chatToResponses(input, request, String(expected.id).slice('resp_'.length))).toEqual(expected);
  });
});
