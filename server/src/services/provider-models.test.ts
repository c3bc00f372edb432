import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_TYPE as T, defaultModels } from '@switchyard/shared';
import { NO_SETTINGS } from '../relay/channel-settings.js';
import { createUpstreamClient } from '../relay/upstream.js';
import { startOllamaMock, type OllamaMock } from '../test/mocks/ollama.js';
import { startPalmMock, type PalmMock } from '../test/mocks/palm.js';
import { startConnectProxy } from '../test/proxy-stand-ins.js';
import { canFetchModels, fetchUpstreamModels, UpstreamQueryError } from './channel-upstream.js';

/*
 * "获取模型列表" for Ollama (its native GET /api/tags), PaLM 2 (the v1beta2 listing, only the generateMessage
 * models) and the types with no listing to ask (Dify, Jina, AI Proxy's knowledge base: their defaults), and the
 * listing sent through the channel's proxy.
 */

describe('model lists of Ollama, PaLM, Dify, Jina and AI Proxy knowledge-base channels', () => {
  let ollama: OllamaMock;
  let palm: PalmMock;
  const upstream = createUpstreamClient({ relayTimeoutSeconds: 0, streamingTimeoutSeconds: 60 });
  const channel = (type: number, baseUrl: string, key: string) => ({ type, baseUrl, key, other: '' });

  beforeAll(async () => {
    ollama = await startOllamaMock();
    // Pages of two, so the listing is read across several.
    palm = await startPalmMock(undefined, 2);
  });
  afterAll(async () => {
    await Promise.all([ollama.close(), palm.close()]);
    await upstream.close();
  });

  it('Ollama: the pulled models of GET /api/tags, with the key for the proxy in front, also from a base URL ending in /v1', async () => {
    for (const base of [ollama.url, `${ollama.url}/v1`]) {
      expect(await fetchUpstreamModels(channel(T.OLLAMA, base, ollama.key), upstream)).toEqual(['llama3.2:latest', 'deepseek-r1:latest', 'nomic-embed-text:latest']);
      expect(ollama.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/tags' });
      expect(ollama.requests.at(-1)!.headers.authorization).toBe(`Bearer ${ollama.key}`);
    }
    const refused = await fetchUpstreamModels(channel(T.OLLAMA, ollama.url, 'wrong'), upstream).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UpstreamQueryError);
    expect((refused as Error).message).toBe('获取模型列表失败：上游返回 HTTP 401');
  });

  it('PaLM: every page of GET /v1beta2/models, keeping the models that serve generateMessage, the key in x-goog-api-key', async () => {
    const before = palm.requests.length;
    expect(await fetchUpstreamModels(channel(T.PALM, palm.url, palm.key), upstream)).toEqual(['chat-bison-001']);
    const sent = palm.requests.slice(before);
    expect(sent.map((r) => [r.path, r.query])).toEqual([
      ['/v1beta2/models', { pageSize: '1000' }],
      ['/v1beta2/models', { pageSize: '1000', pageToken: '2' }],
    ]);
    expect(sent.every((r) => r.headers['x-goog-api-key'] === palm.key)).toBe(true);
    expect(await fetchUpstreamModels(channel(T.PALM, `${palm.url}/v1beta2`, palm.key), upstream)).toEqual(['chat-bison-001']);
    const refused = await fetchUpstreamModels(channel(T.PALM, palm.url, 'AIzaWrong'), upstream).catch((e: unknown) => e);
    expect((refused as Error).message).toBe('获取模型列表失败：上游返回 HTTP 400');
    expect((refused as Error).message).not.toContain('AIzaWrong');
  });

  it('Dify, Jina and AI Proxy knowledge base, which list no models to a key, offer their defaults without a call', async () => {
    for (const type of [T.DIFY, T.JINA, T.AIPROXY_LIBRARY]) {
      expect(canFetchModels(type)).toBe(true);
      expect(await fetchUpstreamModels(channel(type, 'http://127.0.0.1:1', 'k'), upstream)).toEqual([...defaultModels(type)]);
    }
  });

  it('asks through the channel’s proxy when it has one', async () => {
    const proxy = await startConnectProxy();
    try {
      const proxied = { ...channel(T.OLLAMA, ollama.url, ollama.key), settings: { ...NO_SETTINGS, proxy: proxy.url } };
      expect(await fetchUpstreamModels(proxied, upstream)).toHaveLength(3);
      expect(proxy.seen.map((s) => s.target)).toEqual([new URL(ollama.url).host]);
    } finally {
      await proxy.close();
    }
  });
});
