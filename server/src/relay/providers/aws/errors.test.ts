import type { IncomingHttpHeaders } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ParsedUpstreamError } from '../../formats/openai/errors.js';
import { parseBedrockError } from './errors.js';

interface ErrorCase {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  expected: ParsedUpstreamError;
}

const dir = new URL('./fixtures/errors/', import.meta.url);
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, c: JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as ErrorCase }));

describe('Bedrock error answers', () => {
  it('has fixtures', () => expect(cases.length).toBeGreaterThan(0));

  it.each(cases)('$file', ({ c }) => {
    expect(parseBedrockError(c.status, c.body, c.headers)).toEqual(c.expected);
  });

  it('reads the first x-amzn-errortype when the header repeats', () => {
    expect(parseBedrockError(429, '{"message":"slow down"}', { 'x-amzn-errortype': ['ThrottlingException:x', 'Other'] as unknown as string }).type).toBe(
      'ThrottlingException',
    );
  });
});
