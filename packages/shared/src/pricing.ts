/*
 * The money formulas. Quota is an integer; rounding happens in exactly one place (roundQuota).
 * Ratio 1 = $2 per million prompt tokens at the default 500000 quota per dollar.
 */

export interface RatioPrice {
  modelRatio: number;
  completionRatio: number;
  groupRatio: number;
  /** Share of the model ratio charged for prompt tokens served from the provider's cache (1 = full price). */
  cacheRatio: number;
  /** Share charged for prompt tokens written to the provider's cache (Claude: 1.25); 1 when absent. */
  cacheCreationRatio?: number;
  /** Share charged for those written to the one-hour cache (Claude: 2); cacheCreationRatio when absent. */
  cacheCreation1hRatio?: number;
}

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  /** Part of promptTokens served from cache. */
  cachedTokens?: number;
  /** Part of promptTokens written to the cache. */
  cacheCreationTokens?: number;
  /** Part of cacheCreationTokens written to the one-hour cache (the rest went to the five-minute one). */
  cacheCreation1hTokens?: number;
}

/** Half away from zero, to an integer: the only rounding of money. */
export function roundQuota(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/**
 * Ratio mode: round((prompt - cached - created + cached x cacheRatio + (created - created1h) x cacheCreationRatio
 * + created1h x cacheCreation1hRatio + completion x completionRatio) x modelRatio x groupRatio), where cached and
 * created are parts of the prompt and created1h a part of created.
 */
export function quotaForTokens(t: TokenCounts, p: RatioPrice): number {
  const cached = Math.min(t.cachedTokens ?? 0, t.promptTokens);
  const created = Math.min(t.cacheCreationTokens ?? 0, t.promptTokens - cached);
  const created1h = Math.min(t.cacheCreation1hTokens ?? 0, created);
  const plain = t.promptTokens - cached - created;
  const writeRatio = p.cacheCreationRatio ?? 1;
  const written = (created - created1h) * writeRatio + created1h * (p.cacheCreation1hRatio ?? writeRatio);
  const weighted = plain + cached * p.cacheRatio + written + t.completionTokens * p.completionRatio;
  const quota = roundQuota(weighted * p.modelRatio * p.groupRatio);
  // A non-free model never bills a real call at zero.
  if (quota === 0 && p.modelRatio * p.groupRatio > 0 && t.promptTokens + t.completionTokens > 0) return 1;
  return quota;
}

/** Price mode: price (USD per call) x quota per dollar x group ratio. */
export function quotaForPrice(priceUsd: number, groupRatio: number, quotaPerUnit: number): number {
  return roundQuota(priceUsd * quotaPerUnit * groupRatio);
}

/** USD per million tokens as the pricing page shows them (spec §9: prompt = ratio x 2 x group ratio). */
export function pricePerMillion(modelRatio: number, completionRatio: number, groupRatio: number): { prompt: number; completion: number } {
  const prompt = modelRatio * 2 * groupRatio;
  return { prompt, completion: prompt * completionRatio };
}

/** USD per call as the pricing page shows it for per-request models (spec §9: price x group ratio). */
export function pricePerCall(priceUsd: number, groupRatio: number): number {
  return priceUsd * groupRatio;
}

/** quota_type of a pricing entry: per token (ratios) or per call (fixed price). */
export const QUOTA_TYPE = { RATIO: 0, PRICE: 1 } as const;

/** One model of GET /api/pricing (spec §3 Pricing entry). */
export interface PricingEntry {
  model_name: string;
  /** QUOTA_TYPE: 0 ratios, 1 fixed price per call. */
  quota_type: number;
  /** 0 for per-call models. */
  model_ratio: number;
  /** 0 for per-call models. */
  completion_ratio: number;
  /** USD per call; 0 for per-token models. */
  model_price: number;
  /** Groups whose enabled channels serve the model, sorted. */
  enable_groups: string[];
  /** False when the operator set neither a price nor a ratio: calls to the model are refused until one is set. */
  configured: boolean;
}

/** The whole answer of GET /api/pricing: the entries in `data`, group facts beside it (spec §7). */
export interface PricingResponse {
  success: boolean;
  message: string;
  data: PricingEntry[];
  /** Ratio of every group the caller may choose (anonymous visitors: the operator's selectable groups). */
  group_ratio: Record<string, number>;
  /** The same groups with their labels. */
  usable_group: Record<string, string>;
  /** The caller's own group when signed in, else null (the page then prices the default group). */
  user_group: string | null;
}

/** The pricing table's order (spec §2): per-request models first, then gpt models, then by name. */
export function comparePricing(a: Pick<PricingEntry, 'model_name' | 'quota_type'>, b: Pick<PricingEntry, 'model_name' | 'quota_type'>): number {
  if (a.quota_type !== b.quota_type) return b.quota_type - a.quota_type;
  const gptA = a.model_name.startsWith('gpt');
  const gptB = b.model_name.startsWith('gpt');
  if (gptA !== gptB) return gptA ? -1 : 1;
  return a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0;
}
