import { describe, expect, it } from 'vitest';
import { geminiModelList } from './models.js';

describe('Gemini models list', () => {
  it('names each model models/<id> with the methods it supports', () => {
    const list = geminiModelList(['gemini-2.5-flash', 'text-embedding-004']);
    expect(list.models.map((m) => m.name)).toEqual(['models/gemini-2.5-flash', 'models/text-embedding-004']);
    expect(list.models[0].supportedGenerationMethods).toContain('streamGenerateContent');
    expect(list.models[1].supportedGenerationMethods).toContain('batchEmbedContents');
    expect(list.models[0].displayName).toBe('gemini-2.5-flash');
  });
});
