import { describe, expect, it } from 'vitest';
import { loadCases } from './fixtures.js';
import { cleanSchema } from './schema.js';

interface Case {
  description: string;
  input: Record<string, unknown>;
  expected: Record<string, unknown>;
}

describe('JSON schema cleaned for Gemini', () => {
  it.each(loadCases<Case>('schema'))('%s', (_file, fx) => {
    expect(cleanSchema(fx.input), fx.description).toEqual(fx.expected);
  });

  it('never leaves a keyword Gemini refuses, whatever the input', () => {
    const out = JSON.stringify(
      cleanSchema({ type: 'object', additionalProperties: { type: 'string' }, properties: { a: { $ref: '#/definitions/missing', default: 1 } } }),
    );
    for (const bad of ['$ref', '$schema', 'additionalProperties', 'default', 'examples', 'const', 'definitions']) expect(out).not.toContain(bad);
  });
});
