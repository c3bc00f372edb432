import type { Envelope, PaymentMethod } from '@switchyard/shared';
import { api, unwrap } from './client';
import { t } from '../lib/i18n';

/** The signed epay form and where the browser posts it (POST /api/user/pay answers url beside data). */
export interface PayForm {
  url: string;
  fields: Record<string, string>;
}

export const topupApi = {
  /** Redeems a code; resolves with the quota added. A network failure shows '请求失败'. */
  redeem: (key: string) => unwrap(api.post<number>('/api/user/topup', { key }, { networkErrorText: t('请求失败') })),

  /** The price in yuan ("7.30") of an amount; the envelope as it is, so the page can word the failure. */
  price: (amount: number) => api.post<string>('/api/user/amount', { amount, top_up_code: '' }, { silent: true }),

  /** Opens an order; resolves with the form to post (failures are shown by the client). */
  async pay(amount: number, method: PaymentMethod): Promise<PayForm> {
    const res = (await api.post<Record<string, string>>('/api/user/pay', { amount, payment_method: method, top_up_code: '' })) as Envelope<
      Record<string, string>
    > & { url?: string };
    const fields = await unwrap(Promise.resolve(res));
    return { url: res.url ?? '', fields };
  },
};

/** Posts the order form from the page, as the payment gateway expects a browser to arrive. */
export function submitPayForm(form: PayForm): void {
  const el = document.createElement('form');
  el.method = 'POST';
  el.action = form.url;
  el.style.display = 'none';
  for (const [name, value] of Object.entries(form.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    el.appendChild(input);
  }
  document.body.appendChild(el);
  el.submit();
  el.remove();
}
