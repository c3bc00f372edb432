import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJinaError } from './errors.js';
import { normalizeJinaAnswer } from './wire.js';
import type { JinaAnswer } from './types.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const answerOf = (route: string, name: string) => (JSON.parse(readFileSync(new URL(`${route}/${name}`, FIXTURES), 'utf8')) as { status: number; body: JinaAnswer });

describe('Jina answers', () => {
  it('puts a rerank answer’s total_tokens on the prompt side and keeps its results', () => {
    const out = normalizeJinaAnswer(answerOf('rerank', 'default.json').body);
    expect(out.usage).toEqual({ prompt_tokens: 815, completion_tokens: 0, total_tokens: 815 });
    expect((out.results as unknown[]).length).toBe(3);
    expect(out.results).toContainEqual({ index: 2, document: { text: 'Bio-Hautpflege für empfindliche Haut mit Aloe Vera und Kamille.' }, relevance_score: 0.7624675869941711 });
  });

  it('keeps embeddings as OpenAI’s list and leaves answers without usage to be counted', () => {
    const out = normalizeJinaAnswer(answerOf('embeddings', 'default.json').body);
    expect(out).toMatchObject({ object: 'list', data: [{ index: 0 }, { index: 1 }], usage: { prompt_tokens: 14, completion_tokens: 0, total_tokens: 14 } });
    expect(normalizeJinaAnswer(answerOf('rerank', 'no-usage.json').body)).not.toHaveProperty('usage');
    expect(normalizeJinaAnswer({ usage: { total_tokens: 0 } })).not.toHaveProperty('usage');
  });
});

describe('Jina errors', () => {
  const cases = readdirSync(new URL('errors/', FIXTURES)).sort();
  const expected: Record<string, { type: string; message: RegExp; credentials: boolean }> = {
    'no-balance.json': { type: 'insufficient_quota', message: /Insufficient balance/, credentials: true },
    'rate-limit.json': { type: 'rate_limit_error', message: /Rate limit/, credentials: false },
    'unauthorized.json': { type: 'authentication_error', message: /Invalid API key/, credentials: true },
    'validation.json': { type: 'invalid_request_error', message: /^query: field required$/, credentials: false },
  };

  it.each(cases)('%s reads as the refusal it is', (name) => {
    const { status, body } = answerOf('errors', name);
    const parsed = parseJinaError(status, JSON.stringify(body));
    expect(parsed.type).toBe(expected[name].type);
    expect(parsed.message).toMatch(expected[name].message);
    expect(parsed.credentials === true).toBe(expected[name].credentials);
  });

  it('never echoes a body that is not Jina’s', () => {
    expect(parseJinaError(503, '<html>down</html>')).toEqual({ message: 'bad response status code 503', type: 'api_error', code: '' });
  });
});
