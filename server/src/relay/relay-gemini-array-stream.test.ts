import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { EDGE_MODELS as M, startEdgeFixture, VIAS, type EdgeFixture } from '../test/edge-fixture.js';

/*
 * streamGenerateContent without alt=sse answers what Gemini's REST API documents: one JSON array of the response
 * chunks, application/json, written element by element as the chunks come; with alt=sse, SSE as before. Both on a
 * Gemini channel (its SSE re-framed) and on a channel of another format (converted).
 */

const [sqlite] = testDatabases(['sqlite']);
const BODY = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }] });

interface Chunk {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }>;
  usageMetadata?: unknown;
  error?: { code: number; status: string };
}

const textOf = (chunks: Chunk[]) => chunks.map((c) => c.candidates?.[0]?.content?.parts?.map((p) => p.text ?? '').join('') ?? '').join('');

/** The data of each SSE event, parsed. */
const sseChunks = (text: string): Chunk[] =>
  text
    .split(/\r?\n\r?\n/)
    .map((e) => e.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join(''))
    .filter(Boolean)
    .map((d) => JSON.parse(d) as Chunk);

describe('streamGenerateContent without alt=sse', () => {
  let f: EdgeFixture;
  const headers = () => ({ 'x-goog-api-key': f.key, 'content-type': 'application/json' });
  const path = (model: string, sse: boolean) => `/v1beta/models/${model}:streamGenerateContent${sse ? '?alt=sse' : ''}`;

  beforeAll(async () => {
    f = await startEdgeFixture(sqlite);
  });
  afterAll(async () => {
    await f?.close();
  });

  describe.each(VIAS)('through the %s', (via) => {
    it.each([
      ['a Gemini channel (passed through)', M.gemini],
      ['an OpenAI channel (converted)', M.geminiOnOpenAI],
    ])('answers a JSON array of the chunks on %s, the same chunks alt=sse streams', async (_name, model) => {
      const array = await f.send(via, { path: path(model, false), headers: headers(), body: BODY });
      expect(array.status).toBe(200);
      expect(array.headers['content-type']).toMatch(/^application\/json/);
      const chunks = JSON.parse(array.text) as Chunk[];
      expect(Array.isArray(chunks)).toBe(true);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.at(-1)!.candidates?.[0]?.finishReason).toBe('STOP');

      const sse = await f.send(via, { path: path(model, true), headers: headers(), body: BODY });
      expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(textOf(chunks)).toBe(textOf(sseChunks(sse.text)));
      expect(textOf(chunks).length).toBeGreaterThan(0);
      if (model === M.gemini) {
        // The upstream is always asked for SSE; the array is framed here from its events.
        expect(f.gemini.requests.at(-2)!.query.alt).toBe('sse');
        expect(chunks).toEqual(sseChunks(sse.text));
      }
    });

    it('ends an array whose upstream was cut with the error as its last element, still valid JSON', async () => {
      const res = await f.send(via, { path: path(M.geminiCut, false), headers: headers(), body: BODY });
      expect(res.status).toBe(200);
      const chunks = JSON.parse(res.text) as Chunk[];
      expect(chunks.at(-1)!.error).toMatchObject({ code: 502, status: 'UNAVAILABLE' });
    });
  });

  it('writes each element as its chunk arrives, not the whole array at the end', async () => {
    f.gemini.eventDelayMs = 300;
    try {
      const started = Date.now();
      const res = await request(`${f.relay.baseUrl}${path(M.gemini, false)}`, { method: 'POST', headers: headers(), body: BODY });
      const arrivals: Array<{ at: number; text: string }> = [];
      for await (const piece of res.body) arrivals.push({ at: Date.now() - started, text: (piece as Buffer).toString() });
      const whole = arrivals.map((a) => a.text).join('');
      expect(JSON.parse(whole)).toHaveLength(3);
      // The first element was readable while the upstream was still generating the rest.
      expect(arrivals[0].text.startsWith('[{')).toBe(true);
      expect(arrivals.at(-1)!.at - arrivals[0].at).toBeGreaterThanOrEqual(400);
    } finally {
      f.gemini.eventDelayMs = 0;
    }
  });
});
