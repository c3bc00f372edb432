import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { testDatabases } from '../test/databases.js';
import { startRecordingServer, type RecordingServer } from '../test/mocks/local-server.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { mediaTypeOf } from './relayed-media.js';

/*
 * An upstream's file served from the gateway's origin — synthesised speech, a transcript — never becomes a page of
 * that origin: speech keeps the upstream's type only when it is audio, and both come with nosniff and a sandboxing
 * CSP, whatever type the upstream claims. (The Midjourney image route is checked in its own suite.)
 */

describe('mediaTypeOf', () => {
  it('keeps a type of the route’s kind without its parameters, and nothing else', () => {
    expect(mediaTypeOf('image/png', 'image')).toBe('image/png');
    // Kept: the sandboxing CSP sent with it keeps an SVG's script from running when it is opened as a page.
    expect(mediaTypeOf('image/svg+xml', 'image')).toBe('image/svg+xml');
    expect(mediaTypeOf(' Audio/MPEG ; rate=1', 'audio')).toBe('audio/mpeg');
    for (const type of ['text/html', 'audio/', 'imagex/png', 'image/png<script>', '', undefined, ['image/png'], 'application/octet-stream']) {
      expect(mediaTypeOf(type, 'image'), JSON.stringify(type)).toBe('application/octet-stream');
    }
    expect(mediaTypeOf('image/png', 'audio')).toBe('application/octet-stream');
  });
});

describe.each(testDatabases())('relayed upstream files on $name', (database) => {
  let f: RelayFixture;
  let up: RecordingServer;
  let key: string;
  /** What the upstream answers next: its Content-Type (undefined: none) and body. */
  let answer: { type: string | undefined; body: string } = { type: 'audio/mpeg', body: 'ID3' };

  beforeAll(async () => {
    up = await startRecordingServer(async (_req, res) => {
      res.writeHead(200, { ...(answer.type === undefined ? {} : { 'content-type': answer.type }), 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
    f = await startRelay(database);
    await f.setOption('ModelPrice', JSON.stringify({ 'tts-1': 0.001, 'whisper-1': 0.001 }));
    await f.channel({ type: 1, base_url: up.url, key: 'upstream-key', models: 'tts-1,whisper-1' });
    key = (await f.token()).key;
  }, 60_000);
  afterAll(async () => {
    await f?.close();
    await up?.close();
  });

  const speech = () =>
    f.t.app.inject({ method: 'POST', url: '/v1/audio/speech', headers: { authorization: `Bearer ${key}` }, payload: { model: 'tts-1', input: 'hi', voice: 'alloy' } });

  it('serves speech as audio only, with nosniff and a sandbox', async () => {
    for (const [type, served] of [
      ['audio/mpeg', 'audio/mpeg'],
      ['audio/wav; codecs=1', 'audio/wav'],
      ['text/html; charset=utf-8', 'application/octet-stream'],
      ['image/svg+xml', 'application/octet-stream'],
      [undefined, 'application/octet-stream'],
    ] as const) {
      answer = { type, body: '<html><script>alert(document.cookie)</script></html>' };
      const res = await speech();
      expect(res.statusCode, String(type)).toBe(200);
      expect(res.headers['content-type'], String(type)).toBe(served);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe('sandbox');
      expect(res.body).toBe(answer.body);
    }
  });

  it('serves a transcript with its own type, with nosniff and a sandbox', async () => {
    const client = f.client(key);
    for (const type of ['text/plain; charset=utf-8', 'text/vtt', 'text/html']) {
      answer = { type, body: 'WEBVTT\n\n00:00.000 --> 00:01.000\nhi' };
      const raw = await client.audio.transcriptions
        .create({ model: 'whisper-1', file: await toFile(Buffer.from('RIFF....WAVEfmt fake'), 'a.wav', { type: 'audio/wav' }), response_format: 'vtt' })
        .asResponse();
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe(type);
      expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
      expect(raw.headers.get('content-security-policy')).toBe('sandbox');
      expect(await raw.text()).toBe(answer.body);
    }
  });
});
