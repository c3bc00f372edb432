import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { EDGE_MODELS as M, startEdgeFixture, VIAS, type EdgeFixture } from '../test/edge-fixture.js';

/*
 * What reaches a relay path without being a relay call — an unknown path, another method, a URL that is not valid
 * percent-encoding, a body Fastify refuses, HTTP the parser refuses — is answered in the caller's format (OpenAI,
 * Claude or Gemini error body), never with the framework's English texts or the console's envelope.
 */

const [sqlite] = testDatabases(['sqlite']);

type Format = 'openai' | 'claude' | 'gemini';

/** The error body's format, or null when it is none of the three (a framework or console body). */
function formatOf(text: string): Format | null {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const error = body.error as Record<string, unknown> | undefined;
  if (body.type === 'error' && typeof error?.type === 'string' && typeof error.message === 'string') return 'claude';
  if (error && typeof error.message === 'string' && typeof error.code === 'number' && typeof error.status === 'string') return 'gemini';
  if (error && typeof error.message === 'string' && typeof error.type === 'string' && 'param' in error && 'code' in error) return 'openai';
  return null;
}

const FRAMEWORK_TEXT = /FST_ERR|Bad Request"|Client Error|is not a valid url component|did not match Content-Length|"success"/;

describe('relay paths answer every refusal in the caller format', () => {
  let f: EdgeFixture;

  beforeAll(async () => {
    f = await startEdgeFixture(sqlite);
  });
  afterAll(async () => {
    await f?.close();
  });

  function raw(text: string): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(Number(new URL(f.relay.baseUrl).port), '127.0.0.1', () => socket.write(text));
      let out = '';
      socket.on('data', (d) => (out += d.toString()));
      socket.on('close', () => resolve(out));
      socket.on('error', () => resolve(out));
    });
  }

  describe.each(VIAS)('through the %s', (via) => {
    const auth = () => ({ authorization: `Bearer ${f.key}` });

    it.each([
      ['POST', '/v1/nope', {}, 'openai'],
      ['GET', '/v1/chat/completions', {}, 'openai'],
      ['DELETE', '/v1/embeddings', {}, 'openai'],
      ['PUT', '/v1/responses', {}, 'openai'],
      ['GET', '/v1/messages', {}, 'claude'],
      ['PATCH', '/v1/messages/batches', {}, 'claude'],
      ['POST', '/v1/nope', { 'anthropic-version': '2023-06-01' }, 'claude'],
      ['DELETE', `/v1beta/models/${M.gemini}:generateContent`, {}, 'gemini'],
      ['POST', '/v1beta/files', {}, 'gemini'],
      ['POST', '/v1/nope', { 'x-goog-api-key': 'k' }, 'gemini'],
      ['PROPFIND', '/v1/chat/completions', {}, 'openai'],
      ['POST', '/pg/nope', {}, 'openai'],
      ['GET', '/dashboard/nope', {}, 'openai'],
    ] as const)('answers %s %s (%o) with a 404 in %s format', async (method, path, headers, format) => {
      const res = await f.send(via, { method, path, headers: { ...auth(), ...headers } });
      expect(res.status).toBe(404);
      expect(formatOf(res.text)).toBe(format);
      expect(res.text).toContain(`Invalid URL (${method} ${path})`);
    });

    it('reads a body sent to an unknown relay path as the relay does, never as the console JSON', async () => {
      for (const contentType of ['application/json', 'application/xml', 'text/plain']) {
        const res = await f.send(via, { path: '/v1/nope', headers: { ...auth(), 'content-type': contentType }, body: '{"broken' });
        expect(res.status).toBe(404);
        expect(formatOf(res.text)).toBe('openai');
      }
    });

    it.each([
      ['/v1/ch%zzat/completions', 'openai'],
      ['/v1/messages%E0%A4%A', 'claude'],
      [`/v1beta/models/%E0%A4%A:generateContent`, 'gemini'],
    ] as const)('answers a malformed percent-encoding in %s with a 400 in %s format', async (path, format) => {
      const res = await f.send(via, { path, headers: { ...auth(), 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(400);
      expect(formatOf(res.text)).toBe(format);
      expect(res.text).not.toMatch(FRAMEWORK_TEXT);
    });

    it('answers OpenAI calls not relayed yet (501) in the format the caller speaks', async () => {
      const claude = await f.send(via, { method: 'GET', path: '/v1/files', headers: { ...auth(), 'anthropic-version': '2023-06-01' } });
      expect(claude.status).toBe(501);
      expect(formatOf(claude.text)).toBe('claude');
      const openai = await f.send(via, { path: '/v1/images/edits', headers: auth() });
      expect(openai.status).toBe(501);
      expect(formatOf(openai.text)).toBe('openai');
    });

    it('answers a Gemini model path on GET /v1/models/{model} in Gemini format, as its errors are', async () => {
      const res = await f.send(via, { method: 'GET', path: `/v1/models/${M.claude}:generateContent`, headers: { ...auth(), 'anthropic-version': '2023-06-01' } });
      expect(res.status).toBe(404);
      expect(formatOf(res.text)).toBe('gemini');
    });

    it('takes a Gemini model path of any length as a Gemini call, through Fastify as through the lane', async () => {
      const res = await f.send(via, { path: `/v1beta/models/${'m'.repeat(300)}:generateContent`, headers: { ...auth(), 'content-type': 'application/json' }, body: '{"contents":[{"parts":[{"text":"hi"}]}]}' });
      expect(res.status).toBe(404);
      expect(formatOf(res.text)).toBe('gemini');
      expect(res.text).toContain('无可用渠道');
    });

    it('reads a Gemini model name with a percent sign once, as sent (no 500 from decoding it twice)', async () => {
      const res = await f.send(via, { path: '/v1beta/models/a%25-b:generateContent', headers: { ...auth(), 'content-type': 'application/json' }, body: '{"contents":[{"parts":[{"text":"hi"}]}]}' });
      expect(res.status).toBe(404);
      expect(formatOf(res.text)).toBe('gemini');
      expect(res.text).toContain('a%-b');
    });

    it('answers the models list of an Anthropic SDK in Claude format, also when the key is wrong', async () => {
      const res = await f.send(via, { method: 'GET', path: '/v1/models', headers: { 'x-api-key': 'sk-wrong', 'anthropic-version': '2023-06-01' } });
      expect(res.status).toBe(401);
      expect(formatOf(res.text)).toBe('claude');
    });

    it('answers bodies it cannot inflate in the caller format (415 for an unknown encoding, 400 for broken gzip)', async () => {
      const body = JSON.stringify({ model: M.claude, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
      const unknown = await f.send(via, { path: '/v1/messages', headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'compress' }, body });
      expect(unknown.status).toBe(415);
      expect(formatOf(unknown.text)).toBe('claude');
      const gz = gzipSync(body);
      const truncated = await f.send(via, { path: '/v1/messages', headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gz.subarray(0, gz.length - 8) });
      expect(truncated.status).toBe(400);
      expect(formatOf(truncated.text)).toBe('claude');
    });
  });

  it('answers a body shorter than its Content-Length (app.inject) without the framework text', async () => {
    const res = await f.relay.t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json', 'content-length': '10' },
      payload: JSON.stringify({ model: M.openai, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.statusCode).toBe(400);
    expect(formatOf(res.body)).toBe('openai');
    expect(res.body).not.toMatch(FRAMEWORK_TEXT);
  });

  it.each(['/pg/chat/completions', `/v1/engines/${M.openai}/embeddings`])('answers %s, an OpenAI endpoint, in OpenAI format whatever SDK headers come', async (path) => {
    const res = await f.relay.t.app.inject({ method: 'POST', url: path, headers: { 'x-goog-api-key': f.key, 'content-type': '<bad' }, payload: '{}' });
    expect(res.statusCode).toBe(415);
    expect(formatOf(res.body)).toBe('openai');
  });

  it.each([
    ['POST /v1/chat/completions', 'Content-Length: abc', 400, 'openai'],
    ['POST /v1/messages', 'Content-Length: -1', 400, 'claude'],
    [`POST /v1beta/models/${M.gemini}:generateContent`, 'two Content-Lengths', 400, 'gemini'],
    ['POST /v1/chat/completions', 'a 20 kB header', 431, 'openai'],
  ] as const)('answers HTTP the parser refuses (%s with %s) with %i in %s format', async (line, what, status, format) => {
    const header = what === 'two Content-Lengths' ? 'Content-Length: 5\r\nContent-Length: 6' : what === 'a 20 kB header' ? `X-Big: ${'a'.repeat(20_000)}` : what;
    const answer = await raw(`${line} HTTP/1.1\r\nHost: relay\r\n${header}\r\n\r\n{}`);
    expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(formatOf(body)).toBe(format);
    expect(body).not.toMatch(FRAMEWORK_TEXT);
  });
});
