import { CHANNEL_TYPE } from '@switchyard/shared';
import type { RoutedChannel } from '../cache/routing.js';
import type { UpstreamClient } from '../relay/upstream.js';
import { baseOf, bearer, channelCalls, firstEnabledKey, jsonGetter, type JsonGet, UpstreamQueryError } from './channel-upstream.js';

/*
 * A channel's remaining balance in USD, asked of its upstream where the upstream documents a way: OpenAI's dashboard
 * billing, the credit_grants of the resellers built on it, and each provider's own account call. Balances an upstream
 * reports in yuan are converted at the system's price (the option Price, yuan per US dollar). Asked through the
 * channel's proxy, as its relayed calls are.
 */

const FAILED = '获取余额失败';

type BalanceChannel = Pick<RoutedChannel, 'baseUrl' | 'type' | 'key' | 'keyPool' | 'settings'>;
type Json = Record<string, unknown> | null | undefined;
/** How one balance is asked: `get` reaches the upstream the channel's way. */
interface Asking {
  get(url: string, headers: Record<string, string>): Promise<Json>;
  base: string;
  key: string;
  yuanPerUsd: number;
}
type BalanceQuery = (q: Asking) => Promise<number>;

/** A number the answer holds (JSON number or numeric string); anything else is an answer in a shape not understood. */
function amount(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new UpstreamQueryError(`${FAILED}：上游返回的格式不正确`);
  return n;
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** OpenAI's dashboard billing: hard limit minus this month's usage (or the last 100 days' without a payment method). */
const openAIBalance: BalanceQuery = async ({ get, base, key }) => {
  const sub = await get(`${base}/v1/dashboard/billing/subscription`, bearer(key));
  const now = new Date();
  const start = sub?.has_payment_method === true ? `${now.toISOString().slice(0, 7)}-01` : ymd(new Date(now.getTime() - 100 * 86_400_000));
  const end = ymd(new Date(now.getTime() + 86_400_000));
  const usage = await get(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, bearer(key));
  // total_usage is in cents.
  return amount(sub?.hard_limit_usd) - amount(usage?.total_usage ?? 0) / 100;
};

/** OpenAI's former credit grants, still served by resellers: what is left of the granted dollars. */
const creditGrants =
  (field: 'total_available' | 'total_remaining'): BalanceQuery =>
  async ({ get, base, key }) =>
    amount((await get(`${base}/dashboard/billing/credit_grants`, bearer(key)))?.[field]);

/** SiliconFlow: data.totalBalance of the user info (the account's currency, not named in the answer). */
const siliconFlowBalance: BalanceQuery = async ({ get, base, key }) => {
  const body = await get(`${base}/v1/user/info`, bearer(key));
  return amount((body?.data as Json)?.totalBalance);
};

/** DeepSeek: one balance per currency the account holds; the US dollar one, else the yuan one converted. */
const deepSeekBalance: BalanceQuery = async ({ get, base, key, yuanPerUsd }) => {
  const body = await get(`${base.replace(/\/v1$/, '')}/user/balance`, bearer(key));
  const infos = Array.isArray(body?.balance_infos) ? (body.balance_infos as Json[]) : [];
  const usd = infos.find((b) => b?.currency === 'USD');
  if (usd) return amount(usd.total_balance);
  const cny = infos.find((b) => b?.currency === 'CNY');
  if (cny) return amount(cny.total_balance) / yuanPerUsd;
  throw new UpstreamQueryError(`${FAILED}：上游返回的格式不正确`);
};

/** AIProxy's account API lives on its site, not on the API host a channel's default base URL names. */
const AIPROXY_API_HOST = 'https://api.aiproxy.io';
const AIPROXY_SITE = 'https://aiproxy.io';

/** AIProxy: the account overview's totalPoints, asked with the key in Api-Key. */
const aiProxyBalance: BalanceQuery = async ({ get, base, key }) => {
  const site = base === AIPROXY_API_HOST ? AIPROXY_SITE : base;
  const body = await get(`${site}/api/report/getUserOverview`, { 'api-key': key });
  if (body?.success !== true) throw new UpstreamQueryError(`${FAILED}：${typeof body?.message === 'string' && body.message ? body.message : '上游返回失败'}`);
  return amount((body.data as Json)?.totalPoints);
};

/** OpenRouter: credits bought minus credits used, in dollars. */
const openRouterBalance: BalanceQuery = async ({ get, base, key }) => {
  const data = (await get(`${base.replace(/\/v1$/, '')}/v1/credits`, bearer(key)))?.data as Json;
  return amount(data?.total_credits) - amount(data?.total_usage);
};

/** Moonshot: the available balance (cash and vouchers), in yuan. */
const moonshotBalance: BalanceQuery = async ({ get, base, key, yuanPerUsd }) => {
  const body = await get(`${base.replace(/\/v1$/, '')}/v1/users/me/balance`, bearer(key));
  return amount((body?.data as Json)?.available_balance) / yuanPerUsd;
};

const T = CHANNEL_TYPE;
const QUERIES: Readonly<Record<number, BalanceQuery>> = {
  [T.OPENAI]: openAIBalance,
  [T.CUSTOM]: openAIBalance,
  [T.AIPROXY]: aiProxyBalance,
  [T.API2GPT]: creditGrants('total_remaining'),
  [T.AIGC2D]: creditGrants('total_available'),
  [T.SILICONFLOW]: siliconFlowBalance,
  [T.DEEPSEEK]: deepSeekBalance,
  [T.OPENROUTER]: openRouterBalance,
  [T.MOONSHOT]: moonshotBalance,
};

/**
 * The channel's remaining balance in USD as its upstream reports it, asked with `key` (by default the first enabled
 * one); '尚未实现' for types without a balance API.
 */
export async function fetchUpstreamBalance(channel: BalanceChannel, yuanPerUsd: number, upstream: UpstreamClient, key = firstEnabledKey(channel)): Promise<number> {
  const query = QUERIES[channel.type];
  const base = baseOf(channel);
  if (!query || !base) throw new UpstreamQueryError('尚未实现');
  const getJson: JsonGet = jsonGetter(channelCalls(upstream, channel), FAILED);
  const get = async (url: string, headers: Record<string, string>) => (await getJson(url, headers)) as Json;
  return query({ get, base, key, yuanPerUsd: yuanPerUsd > 0 ? yuanPerUsd : 7.3 });
}
