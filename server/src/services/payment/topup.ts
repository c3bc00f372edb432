import { PAYMENT_METHODS, TOPUP_STATUS, type PaymentMethod } from '@switchyard/shared';
import type { UserRow } from '../../db/schema.js';
import type { AppContext } from '../../context.js';
import { fail } from '../../lib/errors.js';
import { randomAlphanumeric } from '../../lib/random.js';
import { nowSeconds } from '../../lib/time.js';
import type { OptionReader } from '../../options/index.js';
import { logQuota } from '../../store/logs.js';
import { completeTopUp, findTopUpByTradeNo, insertTopUp } from '../../store/topups.js';
import { EPAY_TRADE_SUCCESS, epayPurchaseForm, epaySignatureValid, type EpayMerchant } from './epay.js';
import { formatYuan, quoteTopUp, topUpGroupRatio, type TopUpTerms } from './pricing.js';

/*
 * Online top-up through epay: price an amount, open an order, and turn the gateway's payment notice into quota.
 */

type Ctx = Pick<AppContext, 'db' | 'options' | 'authCache' | 'log'>;

export const PAY_MESSAGES = {
  disabled: '管理员未开启在线充值！',
  noServerAddress: '管理员未设置服务器地址，暂时无法在线充值',
  orderFailed: '创建订单失败，请稍后重试',
} as const;

/** The path of the payment notice, under /api. */
export const EPAY_NOTIFY_PATH = '/api/user/epay/notify';
/** Where the buyer's browser lands after paying: the log, where the top-up shows. */
export const EPAY_RETURN_PATH = '/log';

/** The merchant account, or null while any of PayAddress, EpayId, EpayKey is unset (online top-up off). */
export function epayMerchant(options: OptionReader): EpayMerchant | null {
  const payAddress = options.get('PayAddress').trim();
  const pid = options.get('EpayId').trim();
  const key = options.get('EpayKey').trim();
  return payAddress && pid && key ? { payAddress, pid, key } : null;
}

function termsFor(options: OptionReader, user: UserRow): TopUpTerms {
  return {
    displayInCurrency: options.get('DisplayInCurrencyEnabled'),
    quotaPerUnit: options.get('QuotaPerUnit'),
    minTopUp: options.get('MinTopUp'),
    price: options.get('Price'),
    groupRatio: topUpGroupRatio(options.get('TopupGroupRatio'), user.group),
  };
}

function quoteOrFail(options: OptionReader, user: UserRow, amount: number): { quota: number; cents: number } {
  const quote = quoteTopUp(amount, termsFor(options, user));
  if (!quote.ok) throw fail(quote.message);
  return quote;
}

/** The price preview: yuan for this amount, as "7.30". */
export function priceTopUp(options: OptionReader, user: UserRow, amount: number): string {
  return formatYuan(quoteOrFail(options, user, amount).cents);
}

const baseUrl = (address: string) => address.trim().replace(/\/+$/, '');

/** Opens a pending order and returns the signed epay form for the buyer's browser. */
export async function createEpayOrder(
  ctx: Ctx,
  user: UserRow,
  input: { amount: number; paymentMethod: PaymentMethod },
): Promise<{ url: string; fields: Record<string, string> }> {
  const merchant = epayMerchant(ctx.options);
  if (!merchant) throw fail(PAY_MESSAGES.disabled);
  const { quota, cents } = quoteOrFail(ctx.options, user, input.amount);
  const serverAddress = baseUrl(ctx.options.get('ServerAddress'));
  const callbackAddress = baseUrl(ctx.options.get('CustomCallbackAddress')) || serverAddress;
  if (!callbackAddress) throw fail(PAY_MESSAGES.noServerAddress);
  const now = nowSeconds();
  const tradeNo = `USR${user.id}NO${randomAlphanumeric(8)}${now}`;
  const type = PAYMENT_METHODS[input.paymentMethod];
  const money = formatYuan(cents);
  try {
    await insertTopUp(ctx.db.kysely, {
      user_id: user.id,
      amount: input.amount,
      quota,
      money: cents / 100,
      trade_no: tradeNo,
      payment_method: type,
      create_time: now,
    });
  } catch (err) {
    ctx.log.error({ err, tradeNo }, 'creating a top-up order failed');
    throw fail(PAY_MESSAGES.orderFailed);
  }
  return epayPurchaseForm(merchant, {
    type,
    outTradeNo: tradeNo,
    name: `TUC${input.amount}`,
    money,
    notifyUrl: `${callbackAddress}${EPAY_NOTIFY_PATH}`,
    returnUrl: `${serverAddress || callbackAddress}${EPAY_RETURN_PATH}`,
  });
}

/** "7.3", "7.30" -> 730; anything that is not a plain amount of yuan -> null. */
function centsOf(money: string | undefined): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec((money ?? '').trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/**
 * Handles one payment notice and returns the body to answer: `success` tells the gateway to stop sending it,
 * `fail` makes it try again later. A notice is believed only with the merchant's signature and pid; it credits
 * only a pending order of ours whose price it matches, and only once.
 */
export async function acceptEpayNotice(ctx: Ctx, params: Readonly<Record<string, string>>): Promise<'success' | 'fail'> {
  const merchant = epayMerchant(ctx.options);
  if (!merchant) {
    ctx.log.warn('epay notice refused: online top-up is not configured');
    return 'fail';
  }
  if (!epaySignatureValid(params, merchant.key) || params.pid !== merchant.pid) {
    ctx.log.warn({ outTradeNo: params.out_trade_no }, 'epay notice refused: bad signature or merchant id');
    return 'fail';
  }
  if (params.trade_status !== EPAY_TRADE_SUCCESS) {
    ctx.log.info({ outTradeNo: params.out_trade_no, status: params.trade_status }, 'epay notice without a completed payment');
    return 'success';
  }
  const order = await findTopUpByTradeNo(ctx.db.kysely, params.out_trade_no ?? '');
  if (!order) {
    ctx.log.warn({ outTradeNo: params.out_trade_no }, 'epay notice for an unknown order');
    return 'fail';
  }
  if (centsOf(params.money) !== Math.round(order.money * 100)) {
    ctx.log.error({ outTradeNo: order.trade_no, paid: params.money, due: order.money }, 'epay notice refused: paid amount differs from the order');
    return 'fail';
  }
  if (order.status !== TOPUP_STATUS.PENDING) return 'success';
  const display = { displayInCurrency: ctx.options.get('DisplayInCurrencyEnabled'), quotaPerUnit: ctx.options.get('QuotaPerUnit') };
  const credited = await completeTopUp(ctx.db.kysely, order.trade_no, nowSeconds(), (o) =>
    `使用在线充值成功，充值金额: ${logQuota(o.quota, display)}，支付金额：${o.money.toFixed(2)}`,
  );
  if (credited) {
    await ctx.authCache.forgetUser(credited.user_id);
    ctx.log.info({ outTradeNo: credited.trade_no, userId: credited.user_id, quota: credited.quota }, 'online top-up credited');
  }
  return 'success';
}
