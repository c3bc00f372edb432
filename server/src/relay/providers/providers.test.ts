import { describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../cache/routing.js';
import { DEFAULT_OPTIONS as options } from '../../options/index.js';
import { prepareAttempt } from '../attempt.js';
import type { ClientCall, UpstreamRequest } from '../types.js';
import { providerFor } from './index.js';

function channel(type: number, fields: Partial<RoutedChannel> = {}): RoutedChannel {
  return {
    id: 1, type, name: 'c', key: 'k', baseUrl: '', other: '', organization: '', testModel: '', models: [], groups: ['default'],
    modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
    ...fields,
  };
}

const chat: ClientCall = {
  format: 'openai', mode: 'chat', model: 'm', stream: false, json: { model: 'm', messages: [] }, raw: Buffer.from('{"model":"m","messages":[]}'),
  clientWantsStreamUsage: false, maxTokens: 0,
};

/** Synchronous providers only (the OpenAI-format ones): their build returns the request itself. */
const build = (c: RoutedChannel, call: ClientCall = chat, upstreamModel = call.model) => {
  const provider = providerFor(c.type);
  return provider.build(prepareAttempt(provider, { call, channel: c, upstreamModel, key: 'sk-x', options })) as UpstreamRequest;
};

describe('OpenAI-format providers', () => {
  it('use each type default base URL and a bearer key', () => {
    expect(build(channel(1)).url).toBe('https://api.openai.com/v1/chat/completions');
    expect(build(channel(25)).url).toBe('https://api.moonshot.cn/v1/chat/completions');
    expect(build(channel(40)).url).toBe('https://api.siliconflow.cn/v1/chat/completions');
    expect(build(channel(1)).headers.authorization).toBe('Bearer sk-x');
  });
  it('do not repeat a version segment the base URL already has', () => {
    expect(build(channel(22, { baseUrl: 'https://fastgpt.example/api/v1' })).url).toBe('https://fastgpt.example/api/v1/chat/completions');
  });
  it('fill {model} in a custom channel URL', () => {
    expect(build(channel(8, { baseUrl: 'https://gw.example/deploy/{model}/chat' }), chat, 'llama-3').url).toBe('https://gw.example/deploy/llama-3/chat');
  });
  it('send the OpenAI organization when set', () => {
    expect(build(channel(1, { organization: 'org-1' })).headers['openai-organization']).toBe('org-1');
  });
  it('forward the client bytes untouched when nothing changes, and rewrite the model when mapped', () => {
    expect(build(channel(1)).body).toBe(chat.raw);
    expect(JSON.parse(String(build(channel(1), chat, 'm2').body)).model).toBe('m2');
  });
  it('apply the channel parameter overrides', () => {
    const body = JSON.parse(String(build(channel(1, { paramOverride: { temperature: 0.2 } })).body));
    expect(body.temperature).toBe(0.2);
  });
  it('send MiniMax chat to its own path', () => {
    expect(build(channel(35, { baseUrl: 'https://api.minimax.chat' })).url).toBe('https://api.minimax.chat/v1/text/chatcompletion_v2');
  });
  it('send Ollama to its OpenAI-compatible path on the local default', () => {
    expect(build(channel(4)).url).toBe('http://localhost:11434/v1/chat/completions');
  });
  it('serve unknown types as OpenAI', () => {
    expect(providerFor(9999).name).toBe('openai');
  });
});

describe('Azure OpenAI', () => {
  it('addresses the deployment with api-version and the api-key header', () => {
    const req = build(channel(3, { baseUrl: 'https://res.openai.azure.com/', other: '' }), chat, 'gpt-3.5-turbo');
    expect(req.url).toBe('https://res.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01-preview');
    expect(req.headers['api-key']).toBe('sk-x');
    expect(req.headers.authorization).toBeUndefined();
  });
});
