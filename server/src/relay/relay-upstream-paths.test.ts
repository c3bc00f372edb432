import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { sendJson, startRecordingServer, type RecordingServer } from '../test/mocks/local-server.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';

/*
 * A model name, a deployment or an id a caller sends never reaches another upstream path than its call's: it is one
 * percent-encoded segment of the path, or, when it cannot be one (`.`, `..`, empty), the call is refused before
 * anything is sent. The stand-in upstream records every path it is called on. The calls go through an
 * administrator's key pinned to the channel (`sk-KEY-CHANNELID`), which reaches a channel with any model name; an
 * operator's model list or mapping could hold the same names.
 */

/** Names that would leave their segment if pasted into a path as they are. */
const HOSTILE = ['a/../../b', '../../v1/files', 'x?alt=media&key=1', 'x#frag', 'a%2Fb', '%2e%2e%2fx', 'a\\..\\b'];
/** Names no encoding keeps in their segment: a URL parser resolves them against the path before them. */
const DOTS = ['..', '.'];

const GEMINI_ANSWER = { candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } };
const OPENAI_ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};

describe.each(testDatabases())('upstream paths built from what callers send, on $name', (database) => {
  let f: RelayFixture;
  let up: RecordingServer;
  let adminKey: string;
  const ids: Record<'gemini' | 'azure' | 'custom' | 'openai', number> = { gemini: 0, azure: 0, custom: 0, openai: 0 };

  beforeAll(async () => {
    up = await startRecordingServer(async (req, res: http.ServerResponse) => {
      sendJson(res, 200, JSON.stringify(req.path.includes(':generateContent') ? GEMINI_ANSWER : OPENAI_ANSWER));
    });
    f = await startRelay(database);
    const all = [...HOSTILE, ...DOTS, 'plain'];
    await f.setOption('ModelPrice', JSON.stringify(Object.fromEntries(all.map((m) => [m, 0.001]))));
    const models = 'plain';
    ids.gemini = await f.channel({ type: 24, base_url: up.url, key: 'gemini-key', models });
    ids.azure = await f.channel({ type: 3, base_url: up.url, key: 'azure-key', models, other: '2024-06-01' });
    ids.custom = await f.channel({ type: 8, base_url: `${up.url}/deploy/{model}/chat`, key: 'custom-key', models });
    ids.openai = await f.channel({ type: 1, base_url: up.url, key: 'openai-key', models });
    adminKey = (await f.token()).key;
  }, 60_000);
  afterAll(async () => {
    await f?.close();
    await up?.close();
  });

  const pinned = (channel: keyof typeof ids) => `${adminKey}-${ids[channel]}`;
  /** The paths the upstream was called on while `run` ran. */
  const pathsDuring = async (run: () => Promise<unknown>) => {
    const before = up.requests.length;
    await run();
    return up.requests.slice(before).map((r) => `${r.method} ${r.path}`);
  };
  const chat = (key: string, model: string) =>
    f.t.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, payload: { model, messages: [{ role: 'user', content: 'hi' }] } });
  const gemini = (key: string, model: string) =>
    f.t.app.inject({ method: 'POST', url: `/v1beta/models/${encodeURIComponent(model)}:generateContent`, headers: { 'x-goog-api-key': key }, payload: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } });

  it('keeps a Gemini model from the path in its one segment, through Fastify and through the relay lane', async () => {
    for (const model of HOSTILE) {
      const expected = `POST /v1beta/models/${encodeURIComponent(model)}:generateContent`;
      const injected = await pathsDuring(async () => expect((await gemini(pinned('gemini'), model)).statusCode, model).toBe(200));
      expect(injected, model).toEqual([expected]);
      const laned = await pathsDuring(async () => {
        const res = await fetch(`${f.baseUrl}/v1beta/models/${encodeURIComponent(model)}:generateContent`, {
          method: 'POST',
          headers: { 'x-goog-api-key': pinned('gemini'), 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
        });
        expect(res.status, model).toBe(200);
        await res.arrayBuffer();
      });
      expect(laned, model).toEqual([expected]);
    }
    for (const model of DOTS) {
      let res!: Awaited<ReturnType<typeof gemini>>;
      expect(await pathsDuring(async () => (res = await gemini(pinned('gemini'), model))), model).toEqual([]);
      expect(res.statusCode, model).toBe(400);
      expect(res.json().error, model).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    }
  });

  it('keeps an Azure deployment (the model without dots) in its one segment, and refuses one that is nothing but dots', async () => {
    for (const model of HOSTILE) {
      const paths = await pathsDuring(async () => expect((await chat(pinned('azure'), model)).statusCode, model).toBe(200));
      expect(paths, model).toEqual([`POST /openai/deployments/${encodeURIComponent(model.replaceAll('.', ''))}/chat/completions?api-version=2024-06-01`]);
    }
    for (const model of DOTS) {
      let res!: Awaited<ReturnType<typeof chat>>;
      expect(await pathsDuring(async () => (res = await chat(pinned('azure'), model))), model).toEqual([]);
      expect(res.statusCode, model).toBe(400);
      expect(res.json().error, model).toMatchObject({ code: 'invalid_path_segment', type: 'invalid_request_error' });
    }
  });

  it('fills a custom channel’s {model} with one encoded segment', async () => {
    for (const model of HOSTILE) {
      const paths = await pathsDuring(async () => expect((await chat(pinned('custom'), model)).statusCode, model).toBe(200));
      expect(paths, model).toEqual([`POST /deploy/${encodeURIComponent(model)}/chat`]);
    }
    for (const model of DOTS) {
      let res!: Awaited<ReturnType<typeof chat>>;
      expect(await pathsDuring(async () => (res = await chat(pinned('custom'), model))), model).toEqual([]);
      expect(res.statusCode, model).toBe(400);
    }
  });

  it('keeps a model sent in the body out of the path of a channel that does not put it there', async () => {
    for (const model of [...HOSTILE, ...DOTS]) {
      const paths = await pathsDuring(async () => expect((await chat(pinned('openai'), model)).statusCode, model).toBe(200));
      expect(paths, model).toEqual(['POST /v1/chat/completions']);
    }
  });

  it('answers Responses ids from the gateway’s own store, never from an upstream path', async () => {
    const paths = await pathsDuring(async () => {
      for (const id of [...HOSTILE, 'resp_1?x=1']) {
        for (const [method, url] of [
          ['GET', `/v1/responses/${encodeURIComponent(id)}`],
          ['GET', `/v1/responses/${encodeURIComponent(id)}/input_items`],
          ['DELETE', `/v1/responses/${encodeURIComponent(id)}`],
        ] as const) {
          const res = await f.t.app.inject({ method, url, headers: { authorization: `Bearer ${pinned('openai')}` } });
          expect(res.statusCode, `${method} ${url}`).toBe(404);
          expect(res.json().error, `${method} ${url}`).toMatchObject({ code: 'response_not_found' });
        }
      }
    });
    expect(paths).toEqual([]);
  });
});
