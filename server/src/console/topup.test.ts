import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { startEpaySimulator, type EpaySimulator } from '../test/epay-simulator.js';

/*
 * Online top-up end to end: the console opens an order, the buyer's browser posts the signed form to a local epay
 * gateway, and the gateway calls the notify URL over real HTTP as the protocol documents.
 */

interface PayAnswer {
  success: boolean;
  message: string;
  data: Record<string, string>;
  url: string;
}

describe.each(testDatabases())('online top-up on $name', (database) => {
  let t: TestApp;
  let sim: EpaySimulator;
  let root: Session;
  let alice: Session;
  let baseUrl: string;

  const setOption = async (key: string, value: string) => {
    const res = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key, value } });
    expect(res.json()).toMatchObject({ success: true });
  };
  const quotaOf = async (s: Session) =>
    (await t.app.ctx.db.kysely.selectFrom('users').select('quota').where('id', '=', s.userId).executeTakeFirstOrThrow()).quota;
  const topUpLogs = (s: Session) =>
    t.app.ctx.db.kysely.selectFrom('logs').select(['type', 'quota', 'content']).where('user_id', '=', s.userId).where('type', '=', 1).orderBy('id').execute();
  const orderOf = (tradeNo: string) =>
    t.app.ctx.db.kysely.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();

  async function pay(session: Session, amount: number | string, method = 'zfb'): Promise<PayAnswer> {
    const res = await t.call(session, { method: 'POST', url: '/api/user/pay', payload: { amount, payment_method: method, top_up_code: '' } });
    return res.json() as PayAnswer;
  }
  async function price(session: Session, amount: number | string) {
    const res = await t.call(session, { method: 'POST', url: '/api/user/amount', payload: { amount, top_up_code: '' } });
    return res.json() as { success: boolean; message: string; data?: string };
  }
  /** What the console's hidden form does: post the fields to the url. */
  async function submitForm(answer: PayAnswer): Promise<string> {
    const res = await fetch(answer.url, { method: 'POST', body: new URLSearchParams(answer.data) });
    return res.text();
  }
  async function openOrder(session: Session, amount: number): Promise<string> {
    const answer = await pay(session, amount);
    expect(answer.success).toBe(true);
    await submitForm(answer);
    return answer.data.out_trade_no;
  }

  beforeAll(async () => {
    t = await startTestApp(database);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    sim = await startEpaySimulator({ pid: '1001', key: 'k3y-for-tests' });
    root = await t.root();
    alice = await t.user('alice');
  });
  afterAll(async () => {
    await sim?.close();
    await t?.close();
  });
  beforeEach(async () => {
    sim.autoPay = false;
    for (const [key, value] of Object.entries({
      PayAddress: sim.url,
      EpayId: sim.pid,
      EpayKey: sim.key,
      ServerAddress: baseUrl,
      CustomCallbackAddress: '',
      Price: '7.3',
      MinTopUp: '1',
      TopupGroupRatio: '{"default":1,"vip":1,"svip":1}',
      DisplayInCurrencyEnabled: 'true',
    })) {
      await setOption(key, value);
    }
  });

  it('lets signed-in users price and pay, and anyone deliver a notice', () => {
    const level = (method: string, url: string) => t.app.accessTable.find((r) => r.method === method && r.url === url)?.access;
    expect(level('POST', '/api/user/amount')).toBe('user');
    expect(level('POST', '/api/user/pay')).toBe('user');
    expect(level('GET', '/api/user/epay/notify')).toBe('public');
    expect(level('POST', '/api/user/epay/notify')).toBe('public');
  });

  it('previews the price in yuan', async () => {
    expect(await price(alice, 10)).toEqual({ success: true, message: 'success', data: '73.00' });
    expect(await price(alice, '3')).toEqual({ success: true, message: 'success', data: '21.90' });
  });

  it('opens a pending order and returns the signed form and the submit URL', async () => {
    const answer = await pay(alice, 10, 'wx');
    expect(answer).toMatchObject({ success: true, message: 'success', url: `${sim.url}/submit.php` });
    expect(Object.keys(answer.data).sort()).toEqual(
      ['money', 'name', 'notify_url', 'out_trade_no', 'pid', 'return_url', 'sign', 'sign_type', 'type'],
    );
    expect(answer.data).toMatchObject({
      pid: '1001',
      type: 'wxpay',
      money: '73.00',
      notify_url: `${baseUrl}/api/user/epay/notify`,
      return_url: `${baseUrl}/log`,
      sign_type: 'MD5',
    });
    expect(answer.data.out_trade_no).toMatch(new RegExp(`^USR${alice.userId}NO[A-Za-z0-9]{8}\\d{10}$`));
    expect(await orderOf(answer.data.out_trade_no)).toMatchObject({
      user_id: alice.userId, amount: 10, quota: 5_000_000, money: 73, status: 'pending', payment_method: 'wxpay',
    });
    // The gateway checks our signature with its own implementation and takes the order.
    await submitForm(answer);
    expect(sim.refused).toEqual([]);
    expect(sim.orders.get(answer.data.out_trade_no)).toMatchObject({ money: '73.00', type: 'wxpay' });
  });

  it('credits the quota and writes a top-up log when the gateway reports the payment', async () => {
    const before = await quotaOf(alice);
    const tradeNo = await openOrder(alice, 2);
    expect(await sim.notify(tradeNo)).toBe('success');
    expect(await quotaOf(alice)).toBe(before + 1_000_000);
    expect(await orderOf(tradeNo)).toMatchObject({ status: 'success' });
    const logs = await topUpLogs(alice);
    expect(logs.at(-1)).toEqual({ type: 1, quota: 1_000_000, content: '使用在线充值成功，充值金额: ＄2.000000 额度，支付金额：14.60' });
    // The console sees the new balance at once.
    const self = await t.call(alice, { method: 'GET', url: '/api/user/self' });
    expect(self.json().data.quota).toBe(before + 1_000_000);
  });

  it('pays through the gateway page: the browser form leads to a notice before the buyer is sent back', async () => {
    sim.autoPay = true;
    const before = await quotaOf(alice);
    const answer = await pay(alice, 1);
    const page = await submitForm(answer);
    expect(page).toContain('支付成功');
    expect(await quotaOf(alice)).toBe(before + 500_000);
  });

  it('credits a replayed notice only once', async () => {
    const before = await quotaOf(alice);
    const logsBefore = (await topUpLogs(alice)).length;
    const tradeNo = await openOrder(alice, 1);
    expect(await sim.notify(tradeNo)).toBe('success');
    expect(await sim.notify(tradeNo)).toBe('success');
    expect(await sim.notify(tradeNo)).toBe('success');
    expect(await quotaOf(alice)).toBe(before + 500_000);
    expect(await topUpLogs(alice)).toHaveLength(logsBefore + 1);
  });

  it('credits once when the gateway sends the same notice many times at once', async () => {
    const before = await quotaOf(alice);
    const logsBefore = (await topUpLogs(alice)).length;
    const tradeNo = await openOrder(alice, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, () => sim.notify(tradeNo)));
    expect(answers).toEqual(Array(12).fill('success'));
    expect(await quotaOf(alice)).toBe(before + 1_500_000);
    expect(await topUpLogs(alice)).toHaveLength(logsBefore + 1);
  });

  it('refuses forged and tampered notices and credits nothing', async () => {
    const before = await quotaOf(alice);
    const tradeNo = await openOrder(alice, 5);
    expect(await sim.notify(tradeNo, { signWithKey: 'guessed-key' })).toBe('fail');
    expect(await sim.notify(tradeNo, { sign: '0'.repeat(32) })).toBe('fail');
    // A real signature over a different price: the notice is authentic but not for what this order costs.
    expect(await sim.notify(tradeNo, { override: { money: '0.01' } })).toBe('fail');
    // Signed with our key but for another merchant id.
    expect(await sim.notify(tradeNo, { override: { pid: '9999' } })).toBe('fail');
    // Unpaid states are acknowledged without credit.
    expect(await sim.notify(tradeNo, { override: { trade_status: 'WAIT_BUYER_PAY' } })).toBe('success');
    // A signed notice for an order we never made.
    expect(await sim.notify(tradeNo, { override: { out_trade_no: 'USR1NOnothing0000000000' } })).toBe('fail');
    // A notice with a signature but no fields at all.
    const bare = await fetch(`${baseUrl}/api/user/epay/notify?sign=${'a'.repeat(32)}`);
    expect(await bare.text()).toBe('fail');
    expect(await quotaOf(alice)).toBe(before);
    expect(await orderOf(tradeNo)).toMatchObject({ status: 'pending' });
    // The genuine notice still goes through afterwards.
    expect(await sim.notify(tradeNo)).toBe('success');
    expect(await quotaOf(alice)).toBe(before + 2_500_000);
  });

  it('accepts the notice posted as a form too', async () => {
    const before = await quotaOf(alice);
    const tradeNo = await openOrder(alice, 1);
    const res = await fetch(`${baseUrl}/api/user/epay/notify`, { method: 'POST', body: new URLSearchParams(sim.notice(tradeNo)) });
    expect(await res.text()).toBe('success');
    expect(await quotaOf(alice)).toBe(before + 500_000);
  });

  it('refuses notices while online top-up is not configured', async () => {
    const before = await quotaOf(alice);
    const tradeNo = await openOrder(alice, 1);
    await setOption('EpayKey', '');
    expect(await sim.notify(tradeNo)).toBe('fail');
    expect(await quotaOf(alice)).toBe(before);
  });

  it('applies the amount rules with the spec messages', async () => {
    await setOption('MinTopUp', '5');
    expect(await price(alice, 4)).toEqual({ success: false, message: '充值数量不能小于5' });
    expect(await pay(alice, 4)).toEqual({ success: false, message: '充值数量不能小于5' });
    expect(await price(alice, 5.5)).toEqual({ success: false, message: '充值数量必须是整数' });
    expect((await pay(alice, 10, 'paypal')).success).toBe(false);
    await setOption('Price', '0');
    expect(await price(alice, 5)).toEqual({ success: false, message: '充值金额过低' });
    await setOption('Price', '7.3');
    await setOption('PayAddress', '');
    expect(await pay(alice, 10)).toEqual({ success: false, message: '管理员未开启在线充值！' });
    await setOption('PayAddress', sim.url);
    await setOption('ServerAddress', '');
    expect(await pay(alice, 10)).toEqual({ success: false, message: '管理员未设置服务器地址，暂时无法在线充值' });
  });

  it('prices by the top-up ratio of the buyer\'s group', async () => {
    await setOption('TopupGroupRatio', '{"default":1,"vip":0.5}');
    await t.app.ctx.db.kysely.updateTable('users').set({ group: 'vip' }).where('id', '=', alice.userId).execute();
    try {
      expect((await price(alice, 10)).data).toBe('36.50');
      const answer = await pay(alice, 10);
      expect(answer.data.money).toBe('36.50');
      expect(await orderOf(answer.data.out_trade_no)).toMatchObject({ quota: 5_000_000, money: 36.5 });
    } finally {
      await t.app.ctx.db.kysely.updateTable('users').set({ group: 'default' }).where('id', '=', alice.userId).execute();
    }
  });

  it('takes raw quota when amounts do not show in currency, and credits exactly that', async () => {
    await setOption('DisplayInCurrencyEnabled', 'false');
    expect(await price(alice, 499_999)).toEqual({ success: false, message: '充值数量不能小于500000' });
    expect((await price(alice, 750_000)).data).toBe('10.95');
    const before = await quotaOf(alice);
    const tradeNo = await openOrder(alice, 750_000);
    expect(await sim.notify(tradeNo)).toBe('success');
    expect(await quotaOf(alice)).toBe(before + 750_000);
    expect((await topUpLogs(alice)).at(-1)?.content).toBe('使用在线充值成功，充值金额: 750000 点额度，支付金额：10.95');
  });

  it('sends the notice to the custom callback address when one is set', async () => {
    await setOption('CustomCallbackAddress', 'https://callback.example.com/');
    const answer = await pay(alice, 1);
    expect(answer.data.notify_url).toBe('https://callback.example.com/api/user/epay/notify');
    expect(answer.data.return_url).toBe(`${baseUrl}/log`);
  });
});
