import { describe, expect, it } from 'vitest';
import { epayPurchaseForm, epaySign, epaySignatureValid, epaySigningString, epaySubmitUrl } from './epay.js';

// The expected signature was computed outside this code base (Python hashlib) from the protocol's recipe.
const ORDER = {
  pid: '1001',
  type: 'alipay',
  out_trade_no: 'USR1NOabc1700000000',
  notify_url: 'http://example.com/api/user/epay/notify',
  return_url: 'http://example.com/log',
  name: 'TUC10',
  money: '73.00',
};
const KEY = 'merchantkey';
const SIGNATURE = '0b44aef711f08b028ce115f7d8ebcae9';

describe('epay signing', () => {
  it('sorts by name, skips empty values, sign and sign_type, and appends the key', () => {
    const withNoise = { ...ORDER, sitename: '', sign: 'x', sign_type: 'MD5' };
    expect(epaySigningString(withNoise)).toBe(
      'money=73.00&name=TUC10&notify_url=http://example.com/api/user/epay/notify&out_trade_no=USR1NOabc1700000000&pid=1001&return_url=http://example.com/log&type=alipay',
    );
    expect(epaySign(withNoise, KEY)).toBe(SIGNATURE);
  });

  it('builds the order form with every protocol field, signed', () => {
    const form = epayPurchaseForm(
      { payAddress: 'https://pay.example.com/', pid: '1001', key: KEY },
      {
        type: 'alipay',
        outTradeNo: ORDER.out_trade_no,
        name: 'TUC10',
        money: '73.00',
        notifyUrl: ORDER.notify_url,
        returnUrl: ORDER.return_url,
      },
    );
    expect(form.url).toBe('https://pay.example.com/submit.php');
    expect(form.fields).toEqual({ ...ORDER, sign: SIGNATURE, sign_type: 'MD5' });
  });

  it('accepts the merchant signature in either case and refuses anything else', () => {
    const notice = { ...ORDER, trade_no: '2025000001', trade_status: 'TRADE_SUCCESS' };
    const sign = epaySign(notice, KEY);
    expect(epaySignatureValid({ ...notice, sign, sign_type: 'MD5' }, KEY)).toBe(true);
    expect(epaySignatureValid({ ...notice, sign: sign.toUpperCase() }, KEY)).toBe(true);
    expect(epaySignatureValid({ ...notice, sign, money: '0.01' }, KEY)).toBe(false);
    expect(epaySignatureValid({ ...notice, sign: epaySign(notice, 'other-key') }, KEY)).toBe(false);
    expect(epaySignatureValid({ ...notice, sign, sign_type: 'RSA' }, KEY)).toBe(false);
    expect(epaySignatureValid({ ...notice }, KEY)).toBe(false);
    expect(epaySignatureValid({ ...notice, sign: 'not-hex' }, KEY)).toBe(false);
    expect(epaySignatureValid({ ...notice, sign: epaySign(notice, '') }, '')).toBe(false);
  });

  it('finds submit.php under the pay address', () => {
    expect(epaySubmitUrl('https://pay.example.com')).toBe('https://pay.example.com/submit.php');
    expect(epaySubmitUrl('https://pay.example.com/epay//')).toBe('https://pay.example.com/epay/submit.php');
    expect(epaySubmitUrl('https://pay.example.com/submit.php')).toBe('https://pay.example.com/submit.php');
  });
});
