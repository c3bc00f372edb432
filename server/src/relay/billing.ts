import { quotaForPrice, quotaForTokens, type RatioPrice, type TokenCounts } from '@switchyard/shared';
import type { Options } from '../options/index.js';
import { RelayError } from './errors.js';

/*
 * How a model is priced: a fixed price per call (ModelPrice) or ratios per token (ModelRatio x CompletionRatio x
 * GroupRatio). Pure lookups over the options; the arithmetic is in packages/shared/src/pricing.ts.
 */

export type Pricing =
  | { kind: 'price'; priceUsd: number; groupRatio: number; quotaPerUnit: number }
  | ({ kind: 'ratio' } & RatioPrice);

/** Built-in completion ratios by model family, used when CompletionRatio has no entry for the model. */
function builtinCompletionRatio(model: string): number {
  const m = model.toLowerCase();
  if (m.startsWith('gpt-4o-2024-05-13')) return 3;
  if (m.startsWith('gpt-4o')) return 4;
  if (m.startsWith('chatgpt-4o')) return 3;
  if (m.startsWith('gpt-4.5')) return 2;
  if (m.startsWith('gpt-4.1')) return 4;
  if (m.startsWith('gpt-4-turbo') || m.includes('gpt-4-1106') || m.includes('gpt-4-0125')) return 3;
  if (m.startsWith('gpt-4')) return 2;
  if (m.startsWith('gpt-3.5-turbo-1106')) return 2;
  if (m.startsWith('gpt-3.5-turbo-0125') || m === 'gpt-3.5-turbo') return 3;
  if (m.startsWith('gpt-3.5')) return 4 / 3;
  if (/^o\d/.test(m)) return 4;
  if (m.startsWith('claude-3') || m.startsWith('claude-sonnet') || m.startsWith('claude-opus') || m.startsWith('claude-haiku')) return 5;
  if (m.startsWith('gemini-2.5')) return 8;
  if (m.startsWith('gemini-1.5') || m.startsWith('gemini-2.0')) return 4;
  if (m.startsWith('deepseek')) return 4;
  if (m.startsWith('mistral')) return 3;
  if (m.startsWith('command-r-plus')) return 5;
  if (m.startsWith('command-r')) return 3;
  return 1;
}

/** Built-in cache-read ratios by model family (providers' published discounts), used when CacheRatio has no entry. */
function builtinCacheRatio(model: string): number {
  const m = model.toLowerCase();
  if (m.startsWith('claude')) return 0.1;
  if (m.startsWith('gpt-4o') || m.startsWith('gpt-4.1') || m.startsWith('gpt-4.5') || m === 'gpt-4' || /^o\d/.test(m)) return 0.5;
  if (m.startsWith('gpt-5')) return 0.1;
  if (m.startsWith('deepseek')) return 0.25;
  if (m.startsWith('gemini-2.5') || m.startsWith('gemini-3')) return 0.25;
  return 1;
}

/** Cache writes cost extra only on Claude: 1.25x the input price for the five-minute cache, 2x for the one-hour one. */
function builtinCacheCreationRatio(model: string): number {
  return model.toLowerCase().startsWith('claude') ? 1.25 : 1;
}

function builtinCacheCreation1hRatio(model: string): number {
  return model.toLowerCase().startsWith('claude') ? 2 : 1;
}

/** A model's ratio in a per-model option, else the built-in one. */
const ratioOf = (table: Record<string, number>, model: string, builtin: (model: string) => number): number => (Object.hasOwn(table, model) ? table[model] : builtin(model));

/** gpt-4-gizmo-xyz is priced as gpt-4-gizmo-* (the wildcard key of the tables). */
function tableKey(table: Record<string, number>, model: string): string | undefined {
  if (Object.hasOwn(table, model)) return model;
  for (const prefix of ['gpt-4-gizmo-', 'gpt-4o-gizmo-']) {
    if (model.startsWith(prefix) && Object.hasOwn(table, `${prefix}*`)) return `${prefix}*`;
  }
  return undefined;
}

export function groupRatio(options: Options, group: string): number {
  const ratios = options.get('GroupRatio');
  return Object.hasOwn(ratios, group) ? ratios[group] : 1;
}

/**
 * The pricing of a model for a group; refuses models with neither a price nor a ratio. Computed once per model and
 * group until an option changes; the object is shared, so it is never modified.
 */
export function pricingFor(options: Options, model: string, group: string): Pricing {
  return options.derive(`pricing\n${group}\n${model}`, () => Object.freeze(computePricing(options, model, group)));
}

function computePricing(options: Options, model: string, group: string): Pricing {
  const gr = groupRatio(options, group);
  const prices = options.get('ModelPrice');
  const priceKey = tableKey(prices, model);
  if (priceKey !== undefined) {
    return { kind: 'price', priceUsd: prices[priceKey], groupRatio: gr, quotaPerUnit: options.get('QuotaPerUnit') };
  }
  const ratios = options.get('ModelRatio');
  const ratioKey = tableKey(ratios, model);
  let modelRatio: number;
  if (ratioKey !== undefined) modelRatio = ratios[ratioKey];
  else if (options.get('SelfUseModeEnabled')) modelRatio = 37.5;
  else throw new RelayError(400, `模型 ${model} 倍率或价格未配置，请联系管理员设置`, 'model_price_error');
  const completion = options.get('CompletionRatio');
  const completionKey = tableKey(completion, model);
  return {
    kind: 'ratio',
    modelRatio,
    groupRatio: gr,
    completionRatio: completionKey !== undefined ? completion[completionKey] : builtinCompletionRatio(model),
    cacheRatio: ratioOf(options.get('CacheRatio'), model, builtinCacheRatio),
    cacheCreationRatio: ratioOf(options.get('CacheCreationRatio'), model, builtinCacheCreationRatio),
    cacheCreation1hRatio: ratioOf(options.get('CacheCreation1hRatio'), model, builtinCacheCreation1hRatio),
  };
}

/** What a call costs once its usage is known. */
export function costOf(pricing: Pricing, usage: TokenCounts): number {
  if (pricing.kind === 'price') return quotaForPrice(pricing.priceUsd, pricing.groupRatio, pricing.quotaPerUnit);
  return quotaForTokens(usage, pricing);
}

/**
 * What to reserve before sending: the full price; or, with a cap on the answer, the prompt plus the largest answer
 * at the call's ratios; without a cap, the prompt plus PreConsumedQuota tokens at the model and group ratios.
 */
export function estimateOf(pricing: Pricing, promptTokens: number, maxTokens: number, preConsumedTokens: number): number {
  if (pricing.kind === 'price') return costOf(pricing, { promptTokens: 0, completionTokens: 0 });
  if (maxTokens > 0) return quotaForTokens({ promptTokens, completionTokens: maxTokens }, pricing);
  return quotaForTokens({ promptTokens: promptTokens + preConsumedTokens, completionTokens: 0 }, pricing);
}

/** What a consume log says of a pricing, computed once per pricing object. */
export interface PricingLog {
  /** The log's content: the ratios or the price in words. */
  text: string;
  /** The opening of the log's `other` JSON: the pricing fields, without the closing brace. */
  otherOpening: string;
}

const pricingLogs = new WeakMap<Pricing, PricingLog>();

export function pricingLog(pricing: Pricing): PricingLog {
  let log = pricingLogs.get(pricing);
  if (!log) {
    log = { text: pricingLogText(pricing), otherOpening: JSON.stringify(pricingLogFields(pricing)).slice(0, -1) };
    pricingLogs.set(pricing, log);
  }
  return log;
}

/** The `other` fields of a consume log that explain the charge. */
export function pricingLogFields(pricing: Pricing): Record<string, number> {
  if (pricing.kind === 'price') return { model_price: pricing.priceUsd, group_ratio: pricing.groupRatio, model_ratio: 0, completion_ratio: 0 };
  return {
    model_ratio: pricing.modelRatio,
    completion_ratio: pricing.completionRatio,
    group_ratio: pricing.groupRatio,
    cache_ratio: pricing.cacheRatio,
    model_price: -1,
  };
}

export function pricingLogText(pricing: Pricing): string {
  if (pricing.kind === 'price') return `模型价格 ${pricing.priceUsd}，分组倍率 ${pricing.groupRatio}`;
  return `模型倍率 ${pricing.modelRatio}，补全倍率 ${pricing.completionRatio}，分组倍率 ${pricing.groupRatio}`;
}

const IMAGE_SIZE_RATIO: Record<string, number> = {
  '256x256': 0.4,
  '512x512': 0.45,
  '1024x1024': 1,
  '1024x1792': 2,
  '1792x1024': 2,
};

/** Image calls cost price x size ratio x quality ratio x n (DALL·E's price grid relative to one 1024² image). */
export function imagePriceFactor(model: string, body: Record<string, unknown>): number {
  const n = typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 0 ? body.n : 1;
  const size = typeof body.size === 'string' ? body.size : '1024x1024';
  const sizeRatio = IMAGE_SIZE_RATIO[size] ?? 1;
  let quality = 1;
  if (model === 'dall-e-3' && body.quality === 'hd') quality = size === '1024x1024' ? 2 : 1.5;
  return n * sizeRatio * quality;
}

/** Price-mode pricing scaled by a factor (several images in one call). */
export function scaledPricing(pricing: Pricing, factor: number): Pricing {
  if (pricing.kind !== 'price' || factor === 1) return pricing;
  return { ...pricing, priceUsd: pricing.priceUsd * factor };
}
