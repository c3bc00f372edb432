import { quotaForPrice } from '@switchyard/shared';
import type { Options } from '../../options/index.js';
import { groupRatio } from '../billing.js';

/*
 * Task actions are priced per call: ModelPrice[model] (mj_imagine, swap_face, suno_music, ...) in USD, times the
 * group ratio. An action without a price costs DEFAULT_TASK_PRICE_USD, as in the established gateway: a new
 * upstream action is never free by omission.
 */
export const DEFAULT_TASK_PRICE_USD = 0.1;

export interface TaskPrice {
  priceUsd: number;
  groupRatio: number;
  quota: number;
}

export function taskPrice(options: Options, model: string, group: string): TaskPrice {
  const prices = options.get('ModelPrice');
  const priceUsd = Object.hasOwn(prices, model) ? prices[model] : DEFAULT_TASK_PRICE_USD;
  const ratio = groupRatio(options, group);
  return { priceUsd, groupRatio: ratio, quota: quotaForPrice(priceUsd, ratio, options.get('QuotaPerUnit')) };
}

/** The consume log's words for a task (gateway-behaviour §7: "模型固定价格 X，分组倍率 Y，操作 ACTION，ID ..."). */
export function taskLogText(price: TaskPrice, action: string, upstreamId: string): string {
  const text = `模型固定价格 ${price.priceUsd.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}，操作 ${action}`;
  return upstreamId ? `${text}，ID ${upstreamId}` : text;
}
