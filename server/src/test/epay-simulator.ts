import { createHash, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local epay (易支付) gateway for tests, written from the protocol and not from our client: it takes the
 * buyer's order form at /submit.php (POST form or GET), checks the merchant id and MD5 signature, and pays by
 * calling the merchant's notify_url with a GET carrying the signed notice (pid, trade_no, out_trade_no, type, name,
 * money, trade_status, sign, sign_type), expecting the body `success`. Standalone (node: modules only) so the
 * browser tests can run it too.
 */

export interface SimulatedOrder {
  /** The gateway's own order number. */
  tradeNo: string;
  outTradeNo: string;
  type: string;
  name: string;
  money: string;
  notifyUrl: string;
  returnUrl: string;
  /** Every form field as received. */
  fields: Record<string, string>;
  paid: boolean;
}

export interface NoticeOptions {
  /** Replaces or adds notice fields before signing (e.g. a different money). */
  override?: Record<string, string>;
  /** Signs with this key instead of the merchant's (a forgery). */
  signWithKey?: string;
  /** Sends this sign value as it is (after signing). */
  sign?: string;
}

export interface EpaySimulator {
  /** The PayAddress to configure. */
  url: string;
  pid: string;
  key: string;
  /** Orders accepted at /submit.php, by out_trade_no. */
  orders: Map<string, SimulatedOrder>;
  /** Forms refused at /submit.php, with the reason. */
  refused: Array<{ fields: Record<string, string>; reason: string }>;
  /** Pay on submit: the gateway calls the notify URL before answering the buyer's browser. */
  autoPay: boolean;
  /** Sends the payment notice of an order as the gateway does; resolves with the merchant's answer body. */
  notify(outTradeNo: string, options?: NoticeOptions): Promise<string>;
  /** The notice's query parameters (signed), for tests that deliver it themselves. */
  notice(outTradeNo: string, options?: NoticeOptions): Record<string, string>;
  close(): Promise<void>;
}

/** MD5 over the sorted non-empty parameters except sign and sign_type, `k=v` joined by `&`, key appended. */
function md5Sign(params: Record<string, string>, key: string): string {
  const names = Object.keys(params)
    .filter((n) => n !== 'sign' && n !== 'sign_type' && params[n] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const text = names.map((n) => `${n}=${params[n]}`).join('&') + key;
  return createHash('md5').update(text, 'utf8').digest('hex');
}

async function readFields(req: IncomingMessage): Promise<Record<string, string>> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const fields: Record<string, string> = Object.fromEntries(url.searchParams);
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    Object.assign(fields, Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
  }
  return fields;
}

const REQUIRED = ['pid', 'type', 'out_trade_no', 'notify_url', 'return_url', 'name', 'money', 'sign'];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}

export async function startEpaySimulator(options: { pid?: string; key?: string; autoPay?: boolean } = {}): Promise<EpaySimulator> {
  const pid = options.pid ?? '1001';
  const key = options.key ?? 'simulated-merchant-key';
  const orders = new Map<string, SimulatedOrder>();
  const refused: EpaySimulator['refused'] = [];
  let seq = 0;

  function notice(outTradeNo: string, opts: NoticeOptions = {}): Record<string, string> {
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`simulator: no order ${outTradeNo}`);
    const params: Record<string, string> = {
      pid,
      trade_no: order.tradeNo,
      out_trade_no: order.outTradeNo,
      type: order.type,
      name: order.name,
      money: order.money,
      trade_status: 'TRADE_SUCCESS',
      ...opts.override,
    };
    params.sign = opts.sign ?? md5Sign(params, opts.signWithKey ?? key);
    params.sign_type = 'MD5';
    return params;
  }

  async function notify(outTradeNo: string, opts: NoticeOptions = {}): Promise<string> {
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`simulator: no order ${outTradeNo}`);
    const target = new URL(order.notifyUrl);
    for (const [k, v] of Object.entries(notice(outTradeNo, opts))) target.searchParams.set(k, v);
    const res = await fetch(target);
    const body = (await res.text()).trim();
    if (body === 'success' && !opts.signWithKey && !opts.sign && !opts.override) order.paid = true;
    return body;
  }

  const sim: EpaySimulator = {
    url: '',
    pid,
    key,
    orders,
    refused,
    autoPay: options.autoPay ?? false,
    notify,
    notice,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://simulator').pathname;
      if (path !== '/submit.php') return page(res, 404, 'Not Found', '');
      const fields = await readFields(req);
      const refuse = (reason: string) => {
        refused.push({ fields, reason });
        page(res, 200, '支付失败', `<p>${escapeHtml(reason)}</p>`);
      };
      const missing = REQUIRED.find((f) => !fields[f]);
      if (missing) return refuse(`缺少参数 ${missing}`);
      if (fields.pid !== pid) return refuse('商户不存在');
      if ((fields.sign_type ?? 'MD5').toUpperCase() !== 'MD5') return refuse('签名类型不支持');
      if (fields.sign.toLowerCase() !== md5Sign(fields, key)) return refuse('签名校验失败');
      if (!/^\d+(\.\d{1,2})?$/.test(fields.money) || Number(fields.money) <= 0) return refuse('金额不合法');
      const existing = orders.get(fields.out_trade_no);
      if (existing && existing.paid) return refuse('订单号重复');
      const order: SimulatedOrder = {
        tradeNo: `2025${String(++seq).padStart(8, '0')}${randomInt(1000, 9999)}`,
        outTradeNo: fields.out_trade_no,
        type: fields.type,
        name: fields.name,
        money: fields.money,
        notifyUrl: fields.notify_url,
        returnUrl: fields.return_url,
        fields,
        paid: false,
      };
      orders.set(order.outTradeNo, order);
      if (!sim.autoPay) {
        return page(res, 200, '收银台', `<p>订单 ${escapeHtml(order.outTradeNo)}</p><p>金额 ${escapeHtml(order.money)} 元</p>`);
      }
      const answer = await notify(order.outTradeNo).catch((err: Error) => `error: ${err.message}`);
      if (answer !== 'success') return page(res, 200, '支付失败', `<p>商户回调失败：${escapeHtml(answer)}</p>`);
      const back = new URL(order.returnUrl);
      for (const [k, v] of Object.entries(notice(order.outTradeNo))) back.searchParams.set(k, v);
      page(res, 200, '支付成功', `<p>金额 ${escapeHtml(order.money)} 元</p><a id="return" href="${escapeHtml(back.toString())}">返回商户</a>`);
    })().catch((err: Error) => page(res, 500, 'Error', escapeHtml(err.message)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sim.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sim;
}
