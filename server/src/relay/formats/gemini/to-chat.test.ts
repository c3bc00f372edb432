import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../openai/chat.js';
import { geminiToChat, lowerTypes } from './to-chat.js';
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

describe('Gemini upper-case schema types', () => {
  it('are lower-cased wherever a JSON Schema holds a schema, and nowhere else', () => {
    const given = {
      type: 'OBJECT',
      properties: { type: { type: 'STRING', enum: ['OBJECT'] }, list: { type: 'ARRAY', items: { type: 'INTEGER' } }, either: { anyOf: [{ type: 'STRING' }, { type: 'NULL' }] } },
      $defs: { node: { type: ['OBJECT', 'NULL'], additionalProperties: { type: 'NUMBER' } } },
      description: 'TYPE: OBJECT',
    };
    expect(lowerTypes(given)).toEqual({
      type: 'object',
      properties: { type: { type: 'string', enum: ['OBJECT'] }, list: { type: 'array', items: { type: 'integer' } }, either: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      $defs: { node: { type: ['object', 'null'], additionalProperties: { type: 'number' } } },
      description: 'TYPE: OBJECT',
    });
  });
});
