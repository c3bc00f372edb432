import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPE as T } from '@switchyard/shared';
import { attemptOn, clientCall, routedChannel } from '../../test/provider-calls.js';
import type { Mode } from '../types.js';
import { providerFor } from './index.js';

/* Where each OpenAI-compatible family sends a call: from its default base URL, and from one ending in a version. */

async function urlOf(type: number, baseUrl: string, model: string, mode: Mode = 'chat'): Promise<string> {
  const provider = providerFor(type);
  const call = clientCall(model, mode === 'chat' ? {} : { prompt: 'x', input: 'x' }, mode);
  return (await provider.build(attemptOn(provider, call, routedChannel(type, 'k', { baseUrl })))).url;
}

describe('OpenAI-compatible family URLs', () => {
  it.each([
    [T.MISTRAL, '', 'mistral-small-latest', 'chat', 'https://api.mistral.ai/v1/chat/completions'],
    [T.MISTRAL, 'https://api.mistral.ai/v1', 'mistral-embed', 'embeddings', 'https://api.mistral.ai/v1/embeddings'],
    [T.DEEPSEEK, '', 'deepseek-chat', 'chat', 'https://api.deepseek.com/v1/chat/completions'],
    [T.DEEPSEEK, 'https://api.deepseek.com/v1', 'deepseek-chat', 'completions', 'https://api.deepseek.com/beta/completions'],
    [T.VOLCENGINE, '', 'doubao-1-5-pro-32k-250115', 'chat', 'https://ark.cn-beijing.volces.com/api/v3/chat/completions'],
    [T.VOLCENGINE, 'https://ark.cn-beijing.volces.com/api/v3', 'bot-20250101-x', 'chat', 'https://ark.cn-beijing.volces.com/api/v3/bots/chat/completions'],
    [T.VOLCENGINE, '', 'doubao-seedream-3-0-t2i-250415', 'images', 'https://ark.cn-beijing.volces.com/api/v3/images/generations'],
    [T.BAIDU_V2, '', 'ernie-4.5-turbo-128k', 'chat', 'https://qianfan.baidubce.com/v2/chat/completions'],
    [T.BAIDU_V2, 'https://qianfan.baidubce.com/v2', 'embedding-v1', 'embeddings', 'https://qianfan.baidubce.com/v2/embeddings'],
    [T.XAI, '', 'grok-4', 'chat', 'https://api.x.ai/v1/chat/completions'],
    [T.OPENROUTER, '', 'openai/gpt-4o', 'chat', 'https://openrouter.ai/api/v1/chat/completions'],
    [T.OPENROUTER, 'https://openrouter.ai/api/v1', 'openai/gpt-4o', 'completions', 'https://openrouter.ai/api/v1/completions'],
    [T.PERPLEXITY, '', 'sonar', 'chat', 'https://api.perplexity.ai/chat/completions'],
  ] as const)('type %i, base %j, %s (%s) → %s', async (type, base, model, mode, url) => {
    expect(await urlOf(type, base, model, mode)).toBe(url);
  });

  it('refuses the calls a family does not serve', () => {
    const channel = routedChannel(T.PERPLEXITY, 'k');
    expect(providerFor(T.PERPLEXITY).supports('embeddings', channel)).toBe(false);
    expect(providerFor(T.DEEPSEEK).supports('embeddings', channel)).toBe(false);
    expect(providerFor(T.MISTRAL).supports('images', channel)).toBe(false);
  });
});
