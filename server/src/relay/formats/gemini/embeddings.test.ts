import { describe, expect, it } from 'vitest';
import { geminiEmbedToOpenAI, openAIToGeminiEmbed } from './embeddings.js';

describe('Gemini embeddings through an OpenAI channel', () => {
  it('turns embedContent and batchEmbedContents into one OpenAI call and back', () => {
    const batch = { requests: [{ model: 'models/e', content: { parts: [{ text: 'a' }] }, outputDimensionality: 8 }, { model: 'models/e', content: { parts: [{ text: 'b' }] } }] };
    expect(geminiEmbedToOpenAI(batch, 'text-embedding-3-small')).toEqual({ model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 8 });
    expect(geminiEmbedToOpenAI({ content: { parts: [{ text: 'x' }, { text: 'y' }] } }, 'm')).toEqual({ model: 'm', input: ['xy'] });
    const resp = {
      object: 'list' as const,
      data: [
        { object: 'embedding' as const, index: 1, embedding: [2] },
        { object: 'embedding' as const, index: 0, embedding: [1] },
      ],
      model: 'm',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    };
    expect(openAIToGeminiEmbed(resp, true)).toEqual({ embeddings: [{ values: [1] }, { values: [2] }] });
    expect(openAIToGeminiEmbed(resp, false)).toEqual({ embedding: { values: [1] } });
  });
});
