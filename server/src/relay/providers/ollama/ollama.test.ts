import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { embeddingsToOllama, ollamaToEmbeddings, type OllamaEmbedResponse } from './embed.js';
import { parseOllamaError } from './errors.js';

const answer = (route: string, name: string) => (JSON.parse(readFileSync(new URL(`./fixtures/${route}/${name}`, import.meta.url), 'utf8')) as { body: OllamaEmbedResponse }).body;

describe('Ollama embeddings', () => {
  it('flattens /api/embed’s vectors into OpenAI’s list with prompt_eval_count as usage', () => {
    expect(ollamaToEmbeddings(answer('embed', 'default.json'), 'nomic-embed-text', false)).toEqual({
      object: 'list',
      model: 'nomic-embed-text',
      data: [
        { object: 'embedding', index: 0, embedding: [0.010071029, -0.0017594862, 0.05007221] },
        { object: 'embedding', index: 1, embedding: [-0.0098650316, 0.018088287, 0.048214052] },
      ],
      usage: { prompt_tokens: 8, total_tokens: 8 },
    });
    expect(ollamaToEmbeddings(answer('embed', 'no-usage.json'), 'm', false)).not.toHaveProperty('usage');
  });

  it('answers base64 when the client asked for it (the OpenAI SDK’s default)', () => {
    const out = ollamaToEmbeddings({ embeddings: [[1, -2]] }, 'm', true);
    const b = Buffer.from(out.data[0].embedding as unknown as string, 'base64');
    expect([b.readFloatLE(0), b.readFloatLE(4)]).toEqual([1, -2]);
  });

  it('sends the input and dimensions, refusing token arrays', () => {
    expect(embeddingsToOllama({ model: 'x', input: ['a', 'b'], dimensions: 256, encoding_format: 'base64' }, 'nomic')).toEqual({ model: 'nomic', input: ['a', 'b'], dimensions: 256 });
    expect(() => embeddingsToOllama({ model: 'x', input: [1, 2] as unknown as string[] }, 'nomic')).toThrow(/token/);
  });

  it('reads Ollama’s {"error": ...} bodies', () => {
    expect(parseOllamaError(404, JSON.stringify({ error: 'model "m" not found, try pulling it first' }))).toEqual({ message: 'model "m" not found, try pulling it first', type: 'not_found_error', code: '' });
    expect(parseOllamaError(500, 'oops')).toEqual({ message: 'bad response status code 500', type: 'server_error', code: '' });
  });
});
