import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/*
 * Multi-key channels on the relay path: a key is chosen per call (random or in turn), a key the upstream refuses
 * goes off alone while the call and the traffic continue on the others, and the channel goes off with its last key.
 * Runs on every database, since key state is written by concurrent failing calls.
 */

const GOOD = ['sk-good-key-one', 'sk-good-key-two', 'sk-good-key-three'];

describe.each(testDatabases())('multi-key channels on $name', (database) => {
  let f: RelayFixture;
  let mock: MockOpenAI;
  let model = 0;

  beforeAll(async () => {
    mock = await startMockOpenAI(GOOD[0]);
    mock.otherKeys = GOOD.slice(1);
    f = await startRelay(database);
    await f.setOption('AutomaticDisableChannelEnabled', 'true');
    await f.setOption('ModelRatio', JSON.stringify(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`mk-model-${i + 1}`, 1.5]))));
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  const db = () => f.t.app.ctx.db.kysely;
  /** A pool channel serving a model of its own, so tests do not share channels. */
  async function pool(keys: string[], mode: 'random' | 'polling'): Promise<{ id: number; name: string }> {
    const name = `mk-model-${++model}`;
    const res = await f.t.call(f.root, {
      method: 'POST',
      url: '/api/channel/',
      payload: { mode: 'multi_to_single', multi_key_mode: mode, channel: { name, type: 1, base_url: mock.url, key: keys.join('\n'), models: name, group: 'default', auto_ban: 1 } },
    });
    expect(res.json()).toMatchObject({ success: true });
    return { id: (res.json() as { data: number[] }).data[0], name };
  }
  const keysSent = (from: number) => mock.requests.slice(from).map((r) => String(r.headers.authorization).replace('Bearer ', ''));
  const info = async (id: number) => {
    const row = await db().selectFrom('channels').select(['status', 'channel_info', 'other_info']).where('id', '=', id).executeTakeFirstOrThrow();
    return { status: row.status, info: JSON.parse(row.channel_info!) as Record<string, Record<string, unknown>>, other: JSON.parse(row.other_info || '{}') as Record<string, unknown> };
  };
  const balance = async () => (await db().selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', f.root.userId).executeTakeFirstOrThrow());

  it('sends calls in turn over the keys of a polling channel', async () => {
    const { name } = await pool(GOOD, 'polling');
    const client = f.client((await f.token()).key);
    const from = mock.requests.length;
    await Promise.all(Array.from({ length: 12 }, () => client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }] })));
    const counts = new Map<string, number>();
    for (const k of keysSent(from)) counts.set(k, (counts.get(k) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ [GOOD[0]]: 4, [GOOD[1]]: 4, [GOOD[2]]: 4 });
  });

  it('spreads concurrent calls over the keys of a random channel', async () => {
    const { name } = await pool(GOOD, 'random');
    const client = f.client((await f.token()).key);
    const from = mock.requests.length;
    await Promise.all(Array.from({ length: 30 }, () => client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }] })));
    const used = new Set(keysSent(from));
    // Each key is missed by 30 uniform picks with probability (2/3)^30, about 5e-6.
    expect([...used].sort()).toEqual([...GOOD].sort());
  });

  it('disables a refused key alone, finishes the call on another key, and charges each call once', async () => {
    const { id, name } = await pool([GOOD[0], 'sk-revoked-key', GOOD[1]], 'polling');
    const client = f.client((await f.token()).key, { maxRetries: 0 });
    await f.flush();
    const before = await balance();
    const from = mock.requests.length;
    const chat = async () => {
      const answer = await client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices).toHaveLength(1);
    };
    const revoked = () => keysSent(from).filter((k) => k === 'sk-revoked-key').length;
    let calls = 0;
    // In turn, the revoked key comes up within three calls.
    while (revoked() === 0) {
      await chat();
      calls++;
      expect(calls).toBeLessThanOrEqual(3);
    }
    // The key goes off in the background, a moment after the refusal, and the routing table follows.
    await expect.poll(() => f.t.app.ctx.routing.channel(id)!.keyPool!.enabled.map((k) => k.index)).toEqual([0, 2]);
    for (let i = 0; i < 4; i++, calls++) await chat();
    // The revoked key was tried once: its call moved on to another key, and no call after it used the key.
    expect(revoked()).toBe(1);
    expect(keysSent(from)).toHaveLength(calls + 1);
    const state = await info(id);
    expect(state.status).toBe(1);
    expect(String(state.info.multi_key_disabled_reason['1'])).toContain('401');
    expect(state.info.multi_key_disabled_time['1']).toBeGreaterThan(0);
    // One charge per call: the refused attempt cost nothing.
    await f.flush();
    const after = await balance();
    expect(after.request_count - before.request_count).toBe(calls);
    const logs = await db().selectFrom('logs').select(['quota', 'channel_id', 'other']).where('model_name', '=', name).where('type', '=', 2).execute();
    expect(logs).toHaveLength(calls);
    const charged = logs.reduce((sum, l) => sum + l.quota, 0);
    expect(charged).toBeGreaterThan(0);
    expect(before.quota - after.quota).toBe(charged);
    expect(after.used_quota - before.used_quota).toBe(charged);
    expect(logs.filter((l) => l.other.includes(`"use_channel":[${id},${id}]`))).toHaveLength(1);
  });

  it('disables the channel when its last key goes, and refunds the call', async () => {
    const { id, name } = await pool(['sk-bad-one', 'sk-bad-two'], 'random');
    const client = f.client((await f.token()).key, { maxRetries: 0 });
    await f.flush();
    const before = await balance();
    await expect(client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 502 });
    await expect.poll(async () => (await info(id)).status).toBe(3);
    const state = await info(id);
    expect(state.info.multi_key_status_list).toEqual({ '0': 3, '1': 3 });
    expect(state.other.status_reason).toBe('All keys are disabled');
    await expect(client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 503 });
    await f.flush();
    const after = await balance();
    expect(after.quota).toBe(before.quota);
    expect(after.used_quota).toBe(before.used_quota);
  });

  it('tests every key in the all-channel test: failing keys go off, passing auto-disabled keys come back', async () => {
    await f.setOption('AutomaticEnableChannelEnabled', 'true');
    const { id } = await pool([GOOD[0], 'sk-test-bad', GOOD[2]], 'random');
    const stored = { is_multi_key: true, multi_key_size: 3, multi_key_status_list: { '2': 3 }, multi_key_disabled_time: { '2': 1 }, multi_key_polling_index: 0, multi_key_mode: 'random' };
    await db().updateTable('channels').set({ channel_info: JSON.stringify(stored) }).where('id', '=', id).execute();
    await f.t.app.ctx.routing.load();
    expect((await f.t.call(f.root, { method: 'GET', url: '/api/channel/test' })).json()).toMatchObject({ success: true });
    await f.t.app.ctx.channelTests.idle();
    const state = await info(id);
    expect(state.info.multi_key_status_list).toEqual({ '1': 3 });
    expect(String(state.info.multi_key_disabled_reason['1'])).toContain('测试失败');
    expect(state.status).toBe(1);
    await f.setOption('AutomaticEnableChannelEnabled', 'false');
  });

  it('tests each key of one channel, reporting per key and switching off the failing one', async () => {
    const { id, name } = await pool(['sk-one-bad', GOOD[1]], 'random');
    const res = await f.t.call(f.root, { method: 'GET', url: `/api/channel/test/${id}?model=${name}` });
    const body = res.json() as { success: boolean; message: string; data: { keys: Array<{ index: number; success: boolean }> } };
    expect(body.success).toBe(false);
    expect(body.message).toContain('#0');
    expect(body.data.keys.map((k) => [k.index, k.success])).toEqual([
      [0, false],
      [1, true],
    ]);
    const state = await info(id);
    expect(state.info.multi_key_status_list).toEqual({ '0': 3 });
    expect(state.status).toBe(1);
    // The balance is what the enabled keys hold; the refused key's own query fails alone.
    const balance = await f.t.call(f.root, { method: 'GET', url: `/api/channel/update_balance/${id}` });
    expect(balance.json()).toMatchObject({ success: true, balance: 100, data: { balance: 100, keys: [{ index: 0, message: expect.stringContaining('获取余额失败') }, { index: 1, balance: 100 }] } });
  });

  it('asks each key its balance, keeps it per key, and switches off only the keys whose account is empty', async () => {
    const keys = ['sk-balance-full', 'sk-balance-empty', 'sk-balance-half', 'sk-balance-by-hand'];
    mock.otherKeys = [...GOOD.slice(1), ...keys];
    mock.hardLimits = { 'sk-balance-empty': 20, 'sk-balance-half': 70, 'sk-balance-by-hand': 1000 };
    const { id } = await pool(keys, 'random');
    const manage = (payload: object) => f.t.call(f.root, { method: 'POST', url: '/api/channel/multi_key/manage', payload: { channel_id: id, ...payload } });
    expect((await manage({ action: 'disable_key', key_index: 3 })).json()).toMatchObject({ success: true });

    const one = (await f.t.call(f.root, { method: 'GET', url: `/api/channel/update_balance/${id}` })).json() as { balance: number; data: { keys: unknown[] } };
    // $120 - $20, $20 - $20, $70 - $20; the key disabled by hand is not asked.
    expect(one.balance).toBe(150);
    expect(one.data.keys).toEqual([
      { index: 0, balance: 100 },
      { index: 1, balance: 0 },
      { index: 2, balance: 50 },
    ]);
    const status = (await manage({ action: 'get_key_status' })).json() as { data: { keys: Array<{ index: number; balance?: number; balance_updated_time?: number }> } };
    expect(status.data.keys.map((k) => [k.index, k.balance])).toEqual([
      [0, 100],
      [1, 0],
      [2, 50],
      [3, undefined],
    ]);
    expect(status.data.keys[0].balance_updated_time).toBeGreaterThan(0);
    const stored = await db().selectFrom('channels').select(['balance']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(stored.balance)).toBe(150);

    // The balance monitor (update all): the empty key goes off alone, the channel stays on.
    expect((await f.t.call(f.root, { method: 'GET', url: '/api/channel/update_balance' })).json()).toMatchObject({ success: true });
    const state = await info(id);
    expect(state.info.multi_key_status_list).toEqual({ '1': 3, '3': 2 });
    expect(state.info.multi_key_disabled_reason['1']).toBe('余额不足');
    expect(state.status).toBe(1);
    // Deleting a key keeps the others' balances on their new indexes.
    expect((await manage({ action: 'delete_key', key_index: 0 })).json()).toMatchObject({ success: true });
    expect((await info(id)).info.multi_key_balance).toEqual({ '0': 0, '1': 50 });
  });
});
