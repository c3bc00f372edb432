import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_TYPE as T } from '@switchyard/shared';
import { COMPAT_KEY, startCompatibleMock, type CompatibleMock } from '../test/mocks/compatible.js';
import { NO_SETTINGS } from '../relay/channel-settings.js';
import { createUpstreamClient } from '../relay/upstream.js';
import { startConnectProxy } from '../test/proxy-stand-ins.js';
import { UpstreamQueryError } from './channel-upstream.js';
import { fetchUpstreamBalance } from './upstream-balances.js';

/*
 * Each documented balance call against a stand-in answering the provider's documented body (fixtures/balances),
 * read as US dollars: yuan balances converted at the system's price (yuan per dollar).
 */

const YUAN_PER_USD = 7.3;

describe('upstream balance queries', () => {
  let mock: CompatibleMock;
  const upstream = createUpstreamClient({ relayTimeoutSeconds: 0, streamingTimeoutSeconds: 60 });
  const balanceOf = (type: number, flavor: string, key = COMPAT_KEY, yuanPerUsd = YUAN_PER_USD) =>
    fetchUpstreamBalance({ type, baseUrl: `${mock.url}/${flavor}`, key }, yuanPerUsd, upstream);

  beforeAll(async () => {
    mock = await startCompatibleMock();
  });
  afterAll(async () => {
    await mock.close();
    await upstream.close();
  });

  it('OpenAI: hard limit minus the usage in cents', async () => {
    expect(await balanceOf(T.OPENAI, 'openai')).toBe(99.5);
    expect(mock.requests.at(-1)!.path).toMatch(/^\/openai\/v1\/dashboard\/billing\/usage\?start_date=\d{4}-\d{2}-01&end_date=/);
  });

  it('OpenRouter: credits bought minus credits used, at /api/v1/credits', async () => {
    expect(await balanceOf(T.OPENROUTER, 'openrouter')).toBe(17.75);
    expect(mock.requests.at(-1)!.path).toBe('/openrouter/v1/credits');
  });

  it('DeepSeek: the USD balance when the account has one, else the CNY one converted', async () => {
    expect(await balanceOf(T.DEEPSEEK, 'deepseek-usd')).toBe(4.5);
    expect(await balanceOf(T.DEEPSEEK, 'deepseek')).toBeCloseTo(36.5 / 7.3, 10);
    expect(await balanceOf(T.DEEPSEEK, 'deepseek', COMPAT_KEY, 7)).toBeCloseTo(36.5 / 7, 10);
  });

  it('Moonshot: the available balance in yuan, converted', async () => {
    expect(await balanceOf(T.MOONSHOT, 'moonshot')).toBeCloseTo(6, 10);
  });

  it('SiliconFlow: totalBalance of the user info', async () => {
    expect(await balanceOf(T.SILICONFLOW, 'siliconflow')).toBe(88.88);
  });

  it('AIProxy: totalPoints, asked with the key in Api-Key', async () => {
    expect(await balanceOf(T.AIPROXY, 'aiproxy')).toBe(12.5);
    expect(mock.requests.at(-1)!.headers['api-key']).toBe(COMPAT_KEY);
  });

  it('API2GPT and AIGC2D: the credit grants left', async () => {
    expect(await balanceOf(T.API2GPT, 'api2gpt')).toBe(14.5);
    expect(await balanceOf(T.AIGC2D, 'aigc2d')).toBe(8.25);
  });

  it('reports a refused key, a missing endpoint and an unsupported type without the key', async () => {
    const refused = await balanceOf(T.OPENROUTER, 'openrouter', 'sk-wrong').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UpstreamQueryError);
    expect((refused as Error).message).toBe('获取余额失败：上游返回 HTTP 401');
    const missing = await balanceOf(T.AIGC2D, 'nowhere').catch((e: unknown) => e);
    expect((missing as Error).message).toBe('获取余额失败：上游返回 HTTP 404');
    await expect(balanceOf(T.MISTRAL, 'mistral')).rejects.toThrow('尚未实现');
  });

  it('asks through the channel’s proxy when it has one', async () => {
    const proxy = await startConnectProxy();
    try {
      const channel = { type: T.SILICONFLOW, baseUrl: `${mock.url}/siliconflow`, key: COMPAT_KEY, settings: { ...NO_SETTINGS, proxy: proxy.url } };
      expect(await fetchUpstreamBalance(channel, YUAN_PER_USD, upstream)).toBe(88.88);
      expect(proxy.seen.map((s) => s.target)).toEqual([new URL(mock.url).host]);
    } finally {
      await proxy.close();
    }
  });
});
