import { createHash, timingSafeEqual } from 'node:crypto';
/*
 * The epay (易支付) protocol as merchants speak it: the order is a form posted by the buyer's browser to
 * `{PayAddress}/submit.php`; the payment notice is a GET on our notify URL. Both carry an MD5 signature over
 * the parameters sorted by name — empty values, `sign` and `sign_type` left out — joined as `k=v&k=v`, with
 * the merchant key appended directly (no separator).
 */
export const EPAY_SIGN_TYPE = 'MD5';
export const EPAY_TRADE_SUCCESS = 'TRADE_SUCCESS';
export const EPAY_SUBMIT_PATH = 'submit.php';
/** The string the signature covers. */
export function epaySigningString(params) {
    return Object.keys(params)
        .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== undefined && params[k] !== '')
        .sort()
        .map((k) => `${k}=${params[k]}`)
        .join('&');
}
export function epaySign(params, key) {
    return createHash('md5').update(epaySigningString(params) + key, 'utf8').digest('hex');
}
/** Whether `params.sign` is the merchant's signature of the other parameters (constant-time comparison). */
export function epaySignatureValid(params, key) {
    const given = (params.sign ?? '').toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(given) || key === '')
        return false;
    if (params.sign_type !== undefined && params.sign_type !== '' && params.sign_type.toUpperCase() !== EPAY_SIGN_TYPE)
        return false;
    return timingSafeEqual(Buffer.from(given, 'ascii'), Buffer.from(epaySign(params, key), 'ascii'));
}
/** Where the buyer's browser posts the order form. A PayAddress that already names submit.php is taken as it is. */
export function epaySubmitUrl(payAddress) {
    const base = payAddress.trim().replace(/\/+$/, '');
    return base.endsWith(`/${EPAY_SUBMIT_PATH}`) ? base : `${base}/${EPAY_SUBMIT_PATH}`;
}
/** The signed fields of an order form and the URL the form goes to. */
export function epayPurchaseForm(merchant, order) {
    const fields = {
        pid: merchant.pid,
        type: order.type,
        out_trade_no: order.outTradeNo,
        notify_url: order.notifyUrl,
        return_url: order.returnUrl,
        name: order.name,
        money: order.money,
    };
    fields.sign = epaySign(fields, merchant.key);
    fields.sign_type = EPAY_SIGN_TYPE;
    return { url: epaySubmitUrl(merchant.payAddress), fields };
}
//# sourceMappingURL=epay.js.map