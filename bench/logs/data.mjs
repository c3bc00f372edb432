// The synthetic log table of the log-query benchmark: a deterministic stream of rows shaped like a busy gateway's
// `logs` (30 days, ~2 rows/s, skewed users, models and channels, a few retries, some top-up / manage / system rows).
import { prng } from '../lib/prng.mjs';

/** Picks 0..n-1 with Zipf weights 1/(k+1)^s: rank 0 is the most frequent. */
function zipf(rand, n, s) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / Math.pow(k + 1, s);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const BASE_MODELS = [
  'gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet-20241022', 'deepseek-chat', 'gemini-1.5-flash', 'gpt-4.1-mini',
  'claude-3-5-haiku-20241022', 'o3-mini', 'qwen-max', 'text-embedding-3-small', 'gpt-4.1', 'gemini-2.0-flash',
  'deepseek-reasoner', 'claude-3-opus-20240229', 'glm-4', 'moonshot-v1-8k', 'gpt-3.5-turbo', 'o1', 'dall-e-3', 'whisper-1',
];
export const MODELS = [...BASE_MODELS, ...Array.from({ length: 40 }, (_, i) => `ft:gpt-4o-mini:org-${i + 1}`)];
export const USERS = 2000;
export const CHANNELS = 50;
export const DAYS = 30;
const TOKEN_NAMES = (rank) => ['default', `key-${rank}`, 'prod', 'dev'].slice(0, 1 + (rank % 4));

/** The usernames of the bench users, by rank (0 = the heaviest). */
export const username = (rank) => `u${rank}`;

/**
 * Yields `rows` log rows (column objects without id) in time order over DAYS days ending at `end` (unix s).
 * `userIds[rank]` is the users-table id of rank `rank`.
 */
export function* logRows(rows, end, userIds) {
  const rand = prng(20260101);
  const pickUser = zipf(rand, USERS, 1.0);
  const pickModel = zipf(rand, MODELS.length, 1.1);
  const pickChannel = zipf(rand, CHANNELS, 1.1);
  const span = DAYS * 86400;
  const start = end - span;
  for (let i = 0; i < rows; i++) {
    // Batched writers store rows slightly out of time order; keep a little of that.
    const created = start + Math.floor((i * span) / rows) - (rand() < 0.1 ? 1 + Math.floor(rand() * 3) : 0);
    const rank = pickUser();
    const base = {
      user_id: userIds[rank],
      created_at: created,
      username: username(rank),
      ip: `10.0.${rank % 250}.${(i % 250) + 1}`,
      group: rank % 7 === 0 ? 'vip' : 'default',
    };
    const kind = rand();
    if (kind >= 0.96) {
      const type = kind < 0.98 ? 1 : kind < 0.99 ? 3 : 4;
      yield {
        ...base,
        type,
        content: type === 1 ? '通过兑换码充值 ＄10.000000 额度，兑换码ID 42' : type === 3 ? '管理员将用户额度从 ＄1 修改为 ＄2' : '新用户注册赠送 ＄1 额度',
        token_name: '',
        model_name: '',
        quota: type === 1 ? 5_000_000 : 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        use_time: 0,
        is_stream: 0,
        channel_id: 0,
        token_id: 0,
        other: '',
      };
      continue;
    }
    const tokens = TOKEN_NAMES(rank);
    const t = Math.floor(rand() * tokens.length);
    const model = pickModel();
    const channel = 1 + pickChannel();
    const chain = rand() < 0.04 ? [1 + ((channel + 7) % CHANNELS), channel] : [channel];
    const prompt = 20 + Math.floor(rand() * 4000);
    const completion = Math.floor(rand() * 1200);
    const stream = rand() < 0.6;
    const modelRatio = [0.075, 1.25, 1.5, 0.5, 15][model % 5];
    const completionRatio = [4, 4, 5, 2, 1][model % 5];
    const groupRatio = base.group === 'vip' ? 0.8 : 1;
    yield {
      ...base,
      type: 2,
      content: `模型倍率 ${modelRatio}，补全倍率 ${completionRatio}，分组倍率 ${groupRatio}`,
      token_name: tokens[t],
      model_name: MODELS[model],
      quota: Math.max(1, Math.round((prompt + completion * completionRatio) * modelRatio * groupRatio)),
      prompt_tokens: prompt,
      completion_tokens: completion,
      use_time: rand() < 0.01 ? 100 + Math.floor(rand() * 300) : Math.floor(rand() * 30),
      is_stream: stream ? 1 : 0,
      channel_id: channel,
      token_id: rank * 4 + t + 1,
      other: JSON.stringify({
        model_ratio: modelRatio,
        group_ratio: groupRatio,
        completion_ratio: completionRatio,
        model_price: -1,
        frt: stream ? 200 + Math.floor(rand() * 4000) : -1,
        admin_info: { use_channel: chain },
      }),
    };
  }
}

export const LOG_COLUMNS = [
  'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'model_name', 'quota', 'prompt_tokens',
  'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'token_id', 'group', 'ip', 'other',
];
