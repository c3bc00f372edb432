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
}

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  /** Part of promptTokens served from cache. */
  cachedTokens?: number;
  /** Part of promptTokens written to the cache. */
  cacheCreationTokens?: number;
}

/** Half away from zero, to an integer: the only rounding of money. */
export function roundQuota(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/**
 * Ratio mode: round((prompt - cached - created + cached x cacheRatio + created x cacheCreationRatio
 * + completion x completionRatio) x modelRatio x groupRatio), where cached and created are parts of the prompt.
 */
export function quotaForTokens(t: TokenCounts, p: RatioPrice): number {
  const cached = Math.min(t.cachedTokens ?? 0, t.promptTokens);
  const created = Math.min(t.cacheCreationTokens ?? 0, t.promptTokens - cached);
  const plain = t.promptTokens - cached - created;
  const weighted = plain + cached * p.cacheRatio + created * (p.cacheCreationRatio ?? 1) + t.completionTokens * p.completionRatio;
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
