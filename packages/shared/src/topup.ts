import { DEFAULT_QUOTA_PER_UNIT, type QuotaDisplay } from './quota.js';

/*
 * Online top-up rules both sides apply (spec §5 Online top-up, §7 Top-up). The amount a user types is in the unit
 * the console shows: whole dollars when amounts show in currency, raw quota otherwise.
 */

/** The console's payment buttons and the epay payment type each one asks for. */
export const PAYMENT_METHODS = { zfb: 'alipay', wx: 'wxpay' } as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;

export const TOPUP_STATUS = { PENDING: 'pending', SUCCESS: 'success' } as const;

/** The smallest amount a user may type: MinTopUp is in dollars, so in raw-quota display it is scaled up. */
export function minTopUpAmount(minTopUp: number, display: QuotaDisplay): number {
  const min = Math.max(1, minTopUp);
  return display.displayInCurrency ? min : Math.ceil(min * (display.quotaPerUnit || DEFAULT_QUOTA_PER_UNIT));
}

/** The quota an amount buys (dollars times quota-per-unit, or the quota itself). */
export function topUpQuota(amount: number, display: QuotaDisplay): number {
  return display.displayInCurrency ? Math.round(amount * (display.quotaPerUnit || DEFAULT_QUOTA_PER_UNIT)) : amount;
}

/** `充值数量不能小于{min}`. */
export const topUpMinimumMessage = (min: number): string => `充值数量不能小于${min}`;

/** What POST /api/user/pay answers on success: the signed form fields (data) and where to post them (url). */
export interface PayOrderResponse {
  success: true;
  message: 'success';
  data: Record<string, string>;
  url: string;
}
