import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pricePerCall, pricePerMillion, type PricingEntry, type PricingResponse } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { costOf, pricingFor } from '../relay/billing.js';

/*
 * Seeded prices, and what the pricing page must show for them, worked out by hand from spec §9:
 *   prompt per 1M = model ratio x 2 x group ratio; completion per 1M = that x completion ratio; per call = price x group ratio.
 */
const RATIOS = { 'gpt-4o': 1.25, 'my-model': 3, 'claude-3-haiku-20240307': 0.125, 'disabled-only': 1 };
const PRICES = { 'dall-e-3': 0.04, 'gpt-4-gizmo-*': 0.1 };
const GROUPS = { default: 1, vip: 0.5, svip: 2 };

describe.each(testDatabases())('GET /api/pricing on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let alice: Session;

  beforeAll(async () => {
    t = await startTestApp(database);
    const o = t.app.ctx.options;
    for (const [key, value] of [
      ['ModelRatio', RATIOS],
      ['ModelPrice', PRICES],
      ['CompletionRatio', { 'my-model': 2 }],
      ['GroupRatio', GROUPS],
      ['UserUsableGroups', { default: '默认分组', vip: 'vip分组' }],
    ] as const) {
      expect(await o.set(key, JSON.stringify(value))).toBeNull();
    }
    root = await t.root();
    alice = await t.user('alice');
    const channel = async (fields: object) => {
      const body = (await t.call(root, { method: 'POST', url: '/api/channel/', payload: { key: 'k', type: 1, ...fields } })).json();
      expect(body.success, body.message).toBe(true);
    };
    await channel({ name: 'main', group: 'default,vip', models: 'gpt-4o,dall-e-3,my-model,claude-3-haiku-20240307,gpt-4-gizmo-abc,unpriced-x' });
    await channel({ name: 'premium', group: 'svip', models: 'gpt-4o' });
    await channel({ name: 'off', group: 'default', models: 'disabled-only', status: 2 });
  });
  afterAll(() => t.close());

  const pricing = async (session: Session | null, headers: Record<string, string> = {}) => {
    const res = await t.call(session, { method: 'GET', url: '/api/pricing', headers });
    expect(res.statusCode).toBe(200);
    return res.json() as PricingResponse;
  };
  const entry = (body: PricingResponse, model: string) => body.data.find((e) => e.model_name === model) as PricingEntry;

  it('lists every routable model once, per-request models first, then gpt models, then by name', async () => {
    const body = await pricing(null);
    expect(body.success).toBe(true);
    expect(body.data.map((e) => e.model_name)).toEqual([
      'gpt-4-gizmo-abc',
      'dall-e-3',
      'gpt-4o',
      'claude-3-haiku-20240307',
      'my-model',
      'unpriced-x',
    ]);
  });

  it('gives each model its quota type, ratios or price, and the groups that reach it', async () => {
    const body = await pricing(null);
    expect(entry(body, 'gpt-4o')).toEqual({
      model_name: 'gpt-4o',
      quota_type: 0,
      model_ratio: 1.25,
      completion_ratio: 4,
      model_price: 0,
      enable_groups: ['default', 'svip', 'vip'],
      configured: true,
    });
    expect(entry(body, 'my-model')).toMatchObject({ quota_type: 0, model_ratio: 3, completion_ratio: 2, enable_groups: ['default', 'vip'] });
    expect(entry(body, 'claude-3-haiku-20240307')).toMatchObject({ quota_type: 0, model_ratio: 0.125, completion_ratio: 5 });
    expect(entry(body, 'dall-e-3')).toMatchObject({ quota_type: 1, model_price: 0.04, model_ratio: 0, completion_ratio: 0 });
    expect(entry(body, 'gpt-4-gizmo-abc')).toMatchObject({ quota_type: 1, model_price: 0.1 });
    expect(entry(body, 'unpriced-x')).toMatchObject({ configured: false, quota_type: 0, model_ratio: 0 });
    expect(entry(body, 'disabled-only')).toBeUndefined();
  });

  it('prices per 1M tokens and per call as the spec formulas give, for every group', async () => {
    const body = await pricing(null);
    const gpt4o = entry(body, 'gpt-4o');
    const my = entry(body, 'my-model');
    const haiku = entry(body, 'claude-3-haiku-20240307');
    const dalle = entry(body, 'dall-e-3');
    const g = body.group_ratio;
    // gpt-4o: 1.25 x 2 = $2.50 in, x 4 = $10 out; vip (0.5) halves it.
    expect(pricePerMillion(gpt4o.model_ratio, gpt4o.completion_ratio, g.default)).toEqual({ prompt: 2.5, completion: 10 });
    expect(pricePerMillion(gpt4o.model_ratio, gpt4o.completion_ratio, g.vip)).toEqual({ prompt: 1.25, completion: 5 });
    // my-model: 3 x 2 = $6 in, x 2 = $12 out.
    expect(pricePerMillion(my.model_ratio, my.completion_ratio, g.default)).toEqual({ prompt: 6, completion: 12 });
    // claude-3-haiku: 0.125 x 2 = $0.25 in, x 5 = $1.25 out.
    expect(pricePerMillion(haiku.model_ratio, haiku.completion_ratio, g.default)).toEqual({ prompt: 0.25, completion: 1.25 });
    // dall-e-3: $0.04 a call, $0.02 in vip.
    expect(pricePerCall(dalle.model_price, g.default)).toBe(0.04);
    expect(pricePerCall(dalle.model_price, g.vip)).toBe(0.02);
  });

  it('shows the prices the relay actually charges', async () => {
    const body = await pricing(null);
    const perUnit = t.app.ctx.options.get('QuotaPerUnit');
    for (const group of ['default', 'vip', 'svip']) {
      const ratio = GROUPS[group as keyof typeof GROUPS];
      const gpt4o = entry(body, 'gpt-4o');
      const page = pricePerMillion(gpt4o.model_ratio, gpt4o.completion_ratio, ratio);
      const billing = pricingFor(t.app.ctx.options, 'gpt-4o', group);
      expect(costOf(billing, { promptTokens: 1_000_000, completionTokens: 0 }) / perUnit).toBeCloseTo(page.prompt, 9);
      expect(costOf(billing, { promptTokens: 0, completionTokens: 1_000_000 }) / perUnit).toBeCloseTo(page.completion, 9);
      const dalle = entry(body, 'dall-e-3');
      expect(costOf(pricingFor(t.app.ctx.options, 'dall-e-3', group), { promptTokens: 0, completionTokens: 0 }) / perUnit).toBeCloseTo(
        pricePerCall(dalle.model_price, ratio),
        9,
      );
    }
  });

  it('tells a visitor the selectable groups with their ratios and no group of their own', async () => {
    const body = await pricing(null);
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.5 });
    expect(body.usable_group).toEqual({ default: '默认分组', vip: 'vip分组' });
    expect(body.user_group).toBeNull();
  });

  it('tells a signed-in user their group, adding it to the groups when it is not a selectable one', async () => {
    expect((await pricing(alice)).user_group).toBe('default');
    const put = await t.call(root, { method: 'PUT', url: '/api/user/', payload: { id: alice.userId, group: 'svip' } });
    expect(put.json().success).toBe(true);
    const body = await pricing(alice);
    expect(body.user_group).toBe('svip');
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.5, svip: 2 });
    expect(body.usable_group.svip).toBe('用户分组');
  });

  it('answers a stale or mismatched login as a visitor instead of refusing', async () => {
    const mismatched = await pricing(alice, { 'new-api-user': String(alice.userId + 1000) });
    expect(mismatched.user_group).toBeNull();
    expect(mismatched.data.length).toBeGreaterThan(0);
    const stale = await pricing(null, { cookie: 'session=garbage', 'new-api-user': '1' });
    expect(stale.user_group).toBeNull();
  });

  it('follows channel and option changes at once', async () => {
    expect((await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'ModelPrice', value: '{"my-model":0.5}' } })).json().success).toBe(true);
    const body = await pricing(null);
    expect(entry(body, 'my-model')).toMatchObject({ quota_type: 1, model_price: 0.5 });
    expect(entry(body, 'dall-e-3')).toMatchObject({ quota_type: 0, configured: false });
    await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'ModelPrice', value: JSON.stringify(PRICES) } });
    const list = (await t.call(root, { method: 'GET', url: '/api/channel/search?keyword=premium' })).json();
    const id = (list.data as Array<{ id: number }>)[0].id;
    expect((await t.call(root, { method: 'PUT', url: '/api/channel/', payload: { id, status: 2 } })).json().success).toBe(true);
    expect(entry(await pricing(null), 'gpt-4o').enable_groups).toEqual(['default', 'vip']);
  });
});
