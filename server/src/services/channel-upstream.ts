import { CHANNEL_TYPE, defaultBaseUrl, isOpenAIFormat } from '@switchyard/shared';
import type { RoutedChannel } from '../cache/routing.js';

/*
 * Admin calls to a channel's upstream that are not relaying: its model list and its account balance. Failures are
 * reported as UpstreamQueryError with a message fit for the console — never the key, never the upstream's body.
 */

export class UpstreamQueryError extends Error {}

const TIMEOUT_MS = 15_000;

const baseOf = (channel: Pick<RoutedChannel, 'baseUrl' | 'type'>) => (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '');

async function getJson(url: string, key: string, failure: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new UpstreamQueryError(`${failure}：${timedOut ? '请求超时' : '无法连接上游'}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new UpstreamQueryError(`${failure}：上游返回 HTTP ${res.status}`);
  }
  try {
    return await res.json();
  } catch {
    throw new UpstreamQueryError(`${failure}：上游返回的不是合法的 JSON`);
  }
}

const firstKey = (key: string) => key.split('\n')[0].trim();

/** Channel types whose upstream model list can be fetched. */
export const canFetchModels = (type: number): boolean => isOpenAIFormat(type) || type === CHANNEL_TYPE.GEMINI;

/** Model ids the upstream lists ({base}/v1/models; Gemini's OpenAI-compatible list without the models/ prefix). */
export async function fetchUpstreamModels(channel: Pick<RoutedChannel, 'baseUrl' | 'type' | 'key'>): Promise<string[]> {
  const base = baseOf(channel);
  if (!base) throw new UpstreamQueryError('获取模型列表失败：渠道未设置 Base URL');
  const gemini = channel.type === CHANNEL_TYPE.GEMINI;
  const body = await getJson(gemini ? `${base}/v1beta/openai/models` : `${base}/v1/models`, firstKey(channel.key), '获取模型列表失败');
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new UpstreamQueryError('获取模型列表失败：上游返回的格式不正确');
  const ids = data
    .map((m) => (m as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string' && id !== '')
    .map((id) => (gemini ? id.replace(/^models\//, '') : id));
  return [...new Set(ids)];
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** OpenAI's dashboard billing: hard limit minus this month's usage (or the last 100 days' without a payment method). */
async function openAIBalance(base: string, key: string): Promise<number> {
  const sub = (await getJson(`${base}/v1/dashboard/billing/subscription`, key, '获取余额失败')) as {
    has_payment_method?: boolean;
    hard_limit_usd?: number;
  };
  const now = new Date();
  const start = sub.has_payment_method
    ? `${now.toISOString().slice(0, 7)}-01`
    : ymd(new Date(now.getTime() - 100 * 86_400_000));
  const end = ymd(new Date(now.getTime() + 86_400_000));
  const usage = (await getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, key, '获取余额失败')) as {
    total_usage?: number;
  };
  const limit = Number(sub.hard_limit_usd ?? NaN);
  const used = Number(usage.total_usage ?? 0) / 100;
  if (!Number.isFinite(limit) || !Number.isFinite(used)) throw new UpstreamQueryError('获取余额失败：上游返回的格式不正确');
  return limit - used;
}

async function siliconFlowBalance(base: string, key: string): Promise<number> {
  const body = (await getJson(`${base}/v1/user/info`, key, '获取余额失败')) as { data?: { totalBalance?: unknown } };
  const balance = Number.parseFloat(String(body.data?.totalBalance ?? ''));
  if (!Number.isFinite(balance)) throw new UpstreamQueryError('获取余额失败：上游返回的格式不正确');
  return balance;
}

async function deepSeekBalance(base: string, key: string): Promise<number> {
  const body = (await getJson(`${base}/user/balance`, key, '获取余额失败')) as {
    balance_infos?: Array<{ currency?: string; total_balance?: unknown }>;
  };
  const entry = body.balance_infos?.find((b) => b.currency === 'CNY') ?? body.balance_infos?.[0];
  const balance = Number.parseFloat(String(entry?.total_balance ?? ''));
  if (!Number.isFinite(balance)) throw new UpstreamQueryError('获取余额失败：上游返回的格式不正确');
  return balance;
}

/** The channel's remaining balance as its upstream reports it; '尚未实现' for types without a balance API. */
export async function fetchUpstreamBalance(channel: Pick<RoutedChannel, 'baseUrl' | 'type' | 'key'>): Promise<number> {
  const base = baseOf(channel);
  const key = firstKey(channel.key);
  switch (channel.type) {
    case CHANNEL_TYPE.OPENAI:
    case CHANNEL_TYPE.CUSTOM:
      if (!base) break;
      return openAIBalance(base, key);
    case CHANNEL_TYPE.SILICONFLOW:
      return siliconFlowBalance(base, key);
    case CHANNEL_TYPE.DEEPSEEK:
      return deepSeekBalance(base, key);
  }
  throw new UpstreamQueryError('尚未实现');
}
