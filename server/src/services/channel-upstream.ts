import { CHANNEL_TYPE, defaultBaseUrl, defaultModels, isOpenAIFormat } from '@switchyard/shared';
import type { Dispatcher } from 'undici';
import { jsonObject, type RoutedChannel } from '../cache/routing.js';
import { channelSettings } from '../relay/channel-settings.js';
import { ollamaRoot } from '../relay/providers/ollama/index.js';
import { palmRoot } from '../relay/providers/palm/index.js';
import type { UpstreamCalls, UpstreamClient } from '../relay/upstream.js';

/*
 * Admin calls to a channel's upstream that are not relaying: its model list (here) and its account balance
 * (upstream-balances.ts). Failures are reported as UpstreamQueryError with a message fit for the console — never
 * the key, never the upstream's body. They go through the relay's upstream client, so a channel with an outbound
 * proxy (`setting.proxy`) is asked through it like its relayed calls.
 */

export class UpstreamQueryError extends Error {}

const TIMEOUT_MS = 15_000;
/** Listings longer than this many pages are cut: a cursor that never ends must not hold the console. */
const MAX_PAGES = 20;
const ANTHROPIC_VERSION = '2023-06-01';
const MODELS_FAILED = '获取模型列表失败';

type UpstreamChannel = Pick<RoutedChannel, 'baseUrl' | 'type' | 'key' | 'other' | 'keyPool' | 'settings'>;

/** What the upstream calls here need of a channel the console has not saved yet (its fields as the form sends them). */
export function unsavedChannel(c: { type: number; key: string; base_url: string; other: string; setting: string }): UpstreamChannel {
  return { type: c.type, key: c.key, baseUrl: c.base_url.replace(/\/+$/, ''), other: c.other, keyPool: null, settings: channelSettings(jsonObject(c.setting), {}) };
}

/** The calls of a channel: through its proxy when it has one. */
export const channelCalls = (upstream: UpstreamClient, channel: Pick<RoutedChannel, 'settings'>): UpstreamCalls => upstream.via(channel.settings?.proxy);

export const baseOf = (channel: Pick<RoutedChannel, 'baseUrl' | 'type'>) => (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '');

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** GETs a JSON body; `failure` starts every error message. */
export type JsonGet = (url: string, headers: Record<string, string>) => Promise<unknown>;

export function jsonGetter(calls: UpstreamCalls, failure: string): JsonGet {
  return async (url, headers) => {
    let res: Dispatcher.ResponseData;
    try {
      res = await calls.send({ url, method: 'GET', headers: { ...headers, accept: 'application/json' } }, AbortSignal.timeout(TIMEOUT_MS));
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
      throw new UpstreamQueryError(`${failure}：${timedOut ? '请求超时' : '无法连接上游'}`);
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump().catch(() => undefined);
      throw new UpstreamQueryError(`${failure}：上游返回 HTTP ${res.statusCode}`);
    }
    try {
      return await res.body.json();
    } catch {
      throw new UpstreamQueryError(`${failure}：上游返回的不是合法的 JSON`);
    }
  };
}

export const firstKey = (key: string) => key.split('\n')[0].trim();
/** The key model lists and balances are asked with: a multi-key channel's first enabled key, else the first line. */
export const firstEnabledKey = (channel: Pick<RoutedChannel, 'key' | 'keyPool'>) => channel.keyPool?.enabled[0]?.key ?? firstKey(channel.key);

type Json = Record<string, unknown> | null | undefined;

/** The non-empty string `field` of each entry of a listing; a listing that is not a list is a bad answer. */
function namesIn(list: unknown, field: string): string[] {
  if (!Array.isArray(list)) throw new UpstreamQueryError(`${MODELS_FAILED}：上游返回的格式不正确`);
  return list.map((m) => (m as Json)?.[field]).filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * Every page of a paged listing: `page` fetches one page from a cursor ('' first) and says where the next starts
 * ('' at the end). Stops at MAX_PAGES or when a cursor comes back again.
 */
async function allPages(page: (cursor: string) => Promise<{ names: string[]; next: string }>): Promise<string[]> {
  const names: string[] = [];
  const seen = new Set<string>();
  let cursor = '';
  for (let i = 0; i < MAX_PAGES; i++) {
    const got = await page(cursor);
    names.push(...got.names);
    if (!got.next || seen.has(got.next)) break;
    seen.add(got.next);
    cursor = got.next;
  }
  return names;
}

/** An OpenAI-compatible list ({data: [{id}]}). */
async function openAIModels(get: JsonGet, url: string, key: string): Promise<string[]> {
  return namesIn(((await get(url, bearer(key))) as Json)?.data, 'id');
}

/** Anthropic: GET /v1/models with its own key header, {data: [{id}], has_more, last_id} paged by after_id. */
function claudeModels(get: JsonGet, base: string, key: string): Promise<string[]> {
  const url = /\/v1$/.test(base) ? `${base}/models` : `${base}/v1/models`;
  const headers = { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION };
  return allPages(async (after) => {
    const body = (await get(`${url}?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`, headers)) as Json;
    const last = body?.last_id;
    return { names: namesIn(body?.data, 'id'), next: body?.has_more === true && typeof last === 'string' ? last : '' };
  });
}

/**
 * Google's Generative Language listing, {models: [{name: "models/...", supportedGenerationMethods}], nextPageToken}
 * paged by pageToken, asked with x-goog-api-key; with `method`, only the models that serve it.
 */
function googleModels(get: JsonGet, url: string, key: string, method?: string): Promise<string[]> {
  return allPages(async (token) => {
    const body = (await get(token ? `${url}&pageToken=${encodeURIComponent(token)}` : url, { 'x-goog-api-key': key })) as Json;
    const next = body?.nextPageToken;
    const serving = method && Array.isArray(body?.models) ? (body.models as Json[]).filter((m) => Array.isArray(m?.supportedGenerationMethods) && m.supportedGenerationMethods.includes(method)) : body?.models;
    return { names: namesIn(serving, 'name').map((n) => n.replace(/^models\//, '')), next: typeof next === 'string' ? next : '' };
  });
}

/** Gemini: GET /v1beta/models, every model. */
const geminiModels = (get: JsonGet, base: string, key: string) => googleModels(get, `${/\/v\d+(alpha|beta)?\d*$/.test(base) ? base : `${base}/v1beta`}/models?pageSize=1000`, key);

/** PaLM 2: GET /v1beta2/models, the models that chat through generateMessage (the only call the provider makes). */
const palmModels = (get: JsonGet, base: string, key: string) => googleModels(get, `${palmRoot(base)}/v1beta2/models?pageSize=1000`, key, 'generateMessage');

/** Ollama: the models pulled on the server, GET /api/tags ({models: [{name}]}); the key only for a proxy in front. */
async function ollamaModels(get: JsonGet, base: string, key: string): Promise<string[]> {
  const body = (await get(`${ollamaRoot(base)}/api/tags`, key ? bearer(key) : {})) as Json;
  return namesIn(body?.models, 'name');
}

/** Cohere: GET /v1/models, {models: [{name}], next_page_token} paged by page_token. */
function cohereModels(get: JsonGet, base: string, key: string): Promise<string[]> {
  const url = `${base.replace(/\/v\d+$/, '')}/v1/models?page_size=1000`;
  return allPages(async (token) => {
    const body = (await get(token ? `${url}&page_token=${encodeURIComponent(token)}` : url, bearer(key))) as Json;
    const next = body?.next_page_token;
    return { names: namesIn(body?.models, 'name'), next: typeof next === 'string' ? next : '' };
  });
}

/** Cloudflare Workers AI: the account's model search, in the v4 envelope ({result: [{name}], result_info}) paged by page. */
function cloudflareModels(get: JsonGet, base: string, key: string, accountId: string): Promise<string[]> {
  if (!accountId) throw new UpstreamQueryError(`${MODELS_FAILED}：Cloudflare 渠道需要在"其他参数"中填写 Account ID`);
  const url = `${base}/client/v4/accounts/${encodeURIComponent(accountId)}/ai/models/search?per_page=100`;
  return allPages(async (cursor) => {
    const page = Number(cursor || '1');
    const body = (await get(`${url}&page=${page}`, bearer(key))) as Json;
    const names = namesIn(body?.result, 'name');
    const info = body?.result_info as Json;
    const total = Number(info?.total_count);
    const perPage = Number(info?.per_page) || names.length;
    const more = names.length > 0 && Number.isFinite(total) && page * perPage < total;
    return { names, next: more ? String(page + 1) : '' };
  });
}

const T = CHANNEL_TYPE;
/** Types with their own listing API. */
const LISTED: ReadonlySet<number> = new Set([T.ANTHROPIC, T.GEMINI, T.COHERE, T.CLOUDFLARE, T.PALM]);
/**
 * Types without a cheap listing call (Bedrock's and Vertex's need other credentials and list far more than they serve;
 * DashScope, Hunyuan, Zhipu, Baidu's v1 API, Spark's WebSocket API, VolcEngine Ark and Perplexity list no models to an
 * API key; a Dify key names one app, not models; Jina and AI Proxy's knowledge-base API document no listing): the
 * type's default models.
 */
const DEFAULT_LISTED: ReadonlySet<number> = new Set([
  T.AWS, T.VERTEX_AI, T.ALI, T.TENCENT, T.ZHIPU, T.ZHIPU_V4, T.BAIDU, T.XUNFEI, T.VOLCENGINE, T.PERPLEXITY, T.DIFY, T.JINA, T.AIPROXY_LIBRARY,
]);

/** Channel types whose model list can be fetched. */
export const canFetchModels = (type: number): boolean => isOpenAIFormat(type) || LISTED.has(type) || DEFAULT_LISTED.has(type);

/**
 * Model ids the upstream lists: {base}/v1/models for OpenAI-compatible types, each provider's own listing for Claude,
 * Gemini and PaLM (without the models/ prefix), Cohere, Cloudflare and Ollama, the type's defaults for the types of
 * DEFAULT_LISTED. Asked through the channel's proxy.
 */
export async function fetchUpstreamModels(channel: UpstreamChannel, upstream: UpstreamClient): Promise<string[]> {
  if (DEFAULT_LISTED.has(channel.type)) return [...defaultModels(channel.type)];
  const base = baseOf(channel);
  if (!base) throw new UpstreamQueryError(`${MODELS_FAILED}：渠道未设置 Base URL`);
  const key = firstEnabledKey(channel);
  const get = jsonGetter(channelCalls(upstream, channel), MODELS_FAILED);
  let ids: string[];
  switch (channel.type) {
    case T.ANTHROPIC:
      ids = await claudeModels(get, base, key);
      break;
    case T.GEMINI:
      ids = await geminiModels(get, base, key);
      break;
    case T.PALM:
      ids = await palmModels(get, base, key);
      break;
    case T.COHERE:
      ids = await cohereModels(get, base, key);
      break;
    case T.CLOUDFLARE:
      ids = await cloudflareModels(get, base, key, channel.other.trim());
      break;
    case T.OLLAMA:
      ids = await ollamaModels(get, base, key);
      break;
    case T.BAIDU_V2:
      // Qianfan v2 lists at /v2/models; a key written as "API Key|AppID" authenticates with its first part.
      ids = await openAIModels(get, `${base.replace(/\/v2$/, '')}/v2/models`, key.split('|')[0].trim());
      break;
    default:
      ids = await openAIModels(get, `${base}/v1/models`, key);
  }
  return [...new Set(ids)];
}
