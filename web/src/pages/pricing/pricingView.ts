import { comparePricing, pricePerCall, pricePerMillion, QUOTA_TYPE, type PricingEntry, type PricingResponse } from '@switchyard/shared';

/** The group a visitor is looked after in: their own when signed in, else the default group (spec §6). */
export const DEFAULT_GROUP = 'default';

export function initialGroup(res: Pick<PricingResponse, 'user_group'> | undefined): string {
  return res?.user_group ?? DEFAULT_GROUP;
}

/** A group's ratio from the answer; a group without one is billed at 1 (as the relay does). */
export function ratioOf(res: Pick<PricingResponse, 'group_ratio'> | undefined, group: string): number {
  const ratios = res?.group_ratio ?? {};
  return Object.hasOwn(ratios, group) ? ratios[group] : 1;
}

/** Dollars with at least two decimals and at most six, without trailing zeros beyond two: $2.50, $0.0375. */
export function formatUsd(value: number): string {
  const [whole, decimals = ''] = value.toFixed(6).replace(/0+$/, '').split('.');
  return `$${whole}.${decimals.padEnd(2, '0')}`;
}

/** A ratio as written in the options (no float noise): 0.075, 1.25, 4. */
export function formatRatio(value: number): string {
  return String(Number(value.toFixed(6)));
}

export type ShownPrice =
  | { kind: 'call'; price: string }
  | { kind: 'tokens'; prompt: string; completion: string }
  | { kind: 'unset' };

/** What the price column shows for a model in a group (spec §9 formulas, per 1M tokens or per call). */
export function shownPrice(entry: PricingEntry, groupRatio: number): ShownPrice {
  if (!entry.configured) return { kind: 'unset' };
  if (entry.quota_type === QUOTA_TYPE.PRICE) return { kind: 'call', price: formatUsd(pricePerCall(entry.model_price, groupRatio)) };
  const { prompt, completion } = pricePerMillion(entry.model_ratio, entry.completion_ratio, groupRatio);
  return { kind: 'tokens', prompt: formatUsd(prompt), completion: formatUsd(completion) };
}

/** Rows whose name contains the keyword (any case), in the page's order. */
export function visibleRows(entries: readonly PricingEntry[], keyword: string): PricingEntry[] {
  const needle = keyword.trim().toLowerCase();
  const rows = needle ? entries.filter((e) => e.model_name.toLowerCase().includes(needle)) : [...entries];
  return rows.sort(comparePricing);
}

/** Whether the model can be called from this group. */
export const availableIn = (entry: PricingEntry, group: string): boolean => entry.configured && entry.enable_groups.includes(group);
