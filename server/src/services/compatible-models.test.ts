import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_TYPE as T, defaultModels } from '@switchyard/shared';
import { QIANFAN_KEY, startCompatibleMock, type CompatibleMock } from '../test/mocks/compatible.js';
import { createUpstreamClient } from '../relay/upstream.js';
import { canFetchModels, fetchUpstreamModels } from './channel-upstream.js';

/* "获取模型列表" for the OpenAI-compatible types whose listing is not OpenAI's /v1/models. */

describe('model lists of the compatible types', () => {
  let mock: CompatibleMock;
  const upstream = createUpstreamClient({ relayTimeoutSeconds: 0, streamingTimeoutSeconds: 60 });
  beforeAll(async () => {
    mock = await startCompatibleMock();
  });
  afterAll(async () => {
    await mock.close();
    await upstream.close();
  });

  it('Qianfan v2 lists at /v2/models with the API key part of an "API Key|AppID" key', async () => {
    const ids = await fetchUpstreamModels({ type: T.BAIDU_V2, baseUrl: `${mock.url}/qianfan`, key: `${QIANFAN_KEY}|app-123`, other: '' }, upstream);
    expect(ids).toEqual(['ernie-4.5-turbo-128k', 'ernie-x1-turbo-32k']);
    expect(mock.requests.at(-1)!.path).toBe('/qianfan/v2/models');
  });

  it('VolcEngine Ark and Perplexity, which list no models to an API key, offer their defaults', async () => {
    for (const type of [T.VOLCENGINE, T.PERPLEXITY]) {
      expect(canFetchModels(type)).toBe(true);
      expect(await fetchUpstreamModels({ type, baseUrl: '', key: 'k', other: '' }, upstream)).toEqual([...defaultModels(type)]);
    }
  });
});
