import { describe, expect, it } from 'vitest';
import { embeddingsToGemini, geminiToEmbeddings } from './embeddings.js';
import { parseGeminiError } from './errors.js';
import { geminiEmbedUrl, geminiHeaders, geminiUrl } from './index.js';
import { SseSplitter } from './sse.js';

describe('Gemini URLs and headers', () => {
  it('builds generate and stream URLs, without repeating a version the base already has', () => {
    expect(geminiUrl('https://generativelanguage.googleapis.com', 'v1beta', 'gemini-2.5-flash', false)).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(geminiUrl('https://proxy.example/v1beta/', 'v1beta', 'gemini-2.5-flash', true)).toBe(
      'https://proxy.example/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(geminiEmbedUrl('https://generativelanguage.googleapis.com', 'v1', 'text-embedding-004')).toBe(
      'https://generativelanguage.googleapis.com/v1/models/text-embedding-004:batchEmbedContents',
    );
    expect(geminiHeaders('k1', true)).toEqual({ 'x-goog-api-key': 'k1', 'content-type': 'application/json', accept: 'text/event-stream' });
  });
});

describe('Gemini upstream errors', () => {
  it('reads message and status name, also from the array the stream endpoint wraps it in', () => {
    const body = { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } };
    expect(parseGeminiError(429, JSON.stringify(body))).toEqual({ message: 'Resource has been exhausted', type: 'RESOURCE_EXHAUSTED', code: 'RESOURCE_EXHAUSTED' });
    expect(parseGeminiError(400, JSON.stringify([body])).message).toBe('Resource has been exhausted');
    expect(parseGeminiError(502, '<html>bad gateway</html>')).toEqual({ message: 'bad response status code 502', type: 'upstream_error', code: '' });
  });
});

describe('embeddings through batchEmbedContents', () => {
  it('sends one request per input and answers in OpenAI shape with the counted prompt tokens', () => {
    expect(embeddingsToGemini({ model: 'text-embedding-004', input: ['a', 'b'], dimensions: 256 }, 'text-embedding-004')).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 256 },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] }, outputDimensionality: 256 },
      ],
    });
    expect(geminiToEmbeddings({ embeddings: [{ values: [0.1, 0.2] }, { values: [0.3] }] }, 'text-embedding-004', 2)).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3] },
      ],
      model: 'text-embedding-004',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
  });
});

describe('SSE splitter', () => {
  it('splits on either blank-line style, joins multi-line data and skips comments', () => {
    const s = new SseSplitter();
    expect(s.push(Buffer.from('data: {"a":1}\r\n\r\n: keep-alive\n\ndata: {"b":\ndata: 2}\n\ndata: {"c"'))).toEqual(['{"a":1}', '{"b":\n2}']);
    expect(s.push(Buffer.from(':3}'))).toEqual([]);
    expect(s.finish()).toEqual(['{"c":3}']);
  });
});
