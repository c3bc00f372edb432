/** 500000 quota units are one US dollar unless the QuotaPerUnit option says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/** Token drawer presets: dollars -> quota. */
export const TOKEN_QUOTA_PRESETS: ReadonlyArray<{ label: string; quota: number }> = [
  { label: '1$', quota: 500_000 },
  { label: '10$', quota: 5_000_000 },
  { label: '50$', quota: 25_000_000 },
  { label: '100$', quota: 50_000_000 },
  { label: '500$', quota: 250_000_000 },
  { label: '1000$', quota: 500_000_000 },
];
export const TOKEN_COUNT_PRESETS: readonly number[] = [10, 20, 30, 100];

export const DEFAULT_NEW_TOKEN = { remain_quota: 500_000, expired_time: -1, unlimited_quota: false } as const;

/** k at 10000, M at a million, B at a billion, one decimal. */
export function shortNumber(n: number): string {
  if (n >= 1_000_000_000) return `${(n / 1_000_000_000).toFixed(1)}B`;
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(n);
}

export interface QuotaDisplay {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

/** A quota amount as the console shows it: dollars when display in currency is on, else raw units (shortened). */
export function formatQuota(quota: number, display: QuotaDisplay, digits = 2): string {
  if (display.displayInCurrency) {
    const value = quota / (display.quotaPerUnit || DEFAULT_QUOTA_PER_UNIT);
    const fixed = value.toFixed(digits);
    // Tiny non-zero amounts would print as $0.00; show the smallest visible amount instead.
    if (quota > 0 && Number(fixed) === 0) return `$${(1 / 10 ** digits).toFixed(digits)}`;
    return `$${fixed}`;
  }
  return shortNumber(quota);
}

/** The balance card shortens raw quota only from 100000 on. */
export function formatBalance(quota: number, display: QuotaDisplay): string {
  if (display.displayInCurrency) return formatQuota(quota, display);
  return quota >= 100_000 ? shortNumber(quota) : String(quota);
}

export function quotaToDollars(quota: number, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): number {
  return quota / quotaPerUnit;
}

export function dollarsToQuota(dollars: number, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): number {
  return Math.round(dollars * quotaPerUnit);
}
