import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/* Channel choice: priority tiers, weights, retries that never revisit a failed channel, pins, mappings, health. */

const [sqlite] = testDatabases(['sqlite']);
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('routing', () => {
  let f: RelayFixture;
  const mocks: MockOpenAI[] = [];
  let key: string;

  async function upstream(): Promise<MockOpenAI> {
    const m = await startMockOpenAI(`sk-up-${mocks.length}`);
    mocks.push(m);
    return m;
  }

  async function channelIds(): Promise<number[]> {
    return (await f.t.app.ctx.db.kysely.selectFrom('channels').select('id').execute()).map((r) => r.id);
  }

  async function clearChannels() {
    for (const id of await channelIds()) await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${id}/` });
    for (const m of mocks) {
      m.requests.length = 0;
      m.queue.length = 0;
      m.behaviour = {};
    }
  }

  beforeAll(async () => {
    f = await startRelay(sqlite);
    key = (await f.token()).key;
  });
  afterEach(() => clearChannels());
  afterAll(async () => {
    await f.close();
    for (const m of mocks) await m.close();
  });

  it('sends every call to the highest priority tier while it works', async () => {
    const [high, low] = [await upstream(), await upstream()];
    await f.channel({ base_url: high.url, key: high.key, models: 'gpt-4o-mini', priority: 10 });
    await f.channel({ base_url: low.url, key: low.key, models: 'gpt-4o-mini', priority: 0 });
    for (let i = 0; i < 10; i++) await f.client(key).chat.completions.create(chat);
    expect(high.requests).toHaveLength(10);
    expect(low.requests).toHaveLength(0);
  });

  it('splits traffic inside a tier by weight + 10', async () => {
    const [heavy, light] = [await upstream(), await upstream()];
    await f.channel({ base_url: heavy.url, key: heavy.key, models: 'gpt-4o-mini', weight: 90 });
    await f.channel({ base_url: light.url, key: light.key, models: 'gpt-4o-mini', weight: 0 });
    const n = 200;
    await Promise.all(Array.from({ length: n }, () => f.client(key).chat.completions.create(chat)));
    // Expected share of the heavy channel: 100 / 110 ≈ 0.909; allow a wide statistical margin.
    const share = heavy.requests.length / n;
    expect(share).toBeGreaterThan(0.8);
    expect(share).toBeLessThan(0.98);
    expect(heavy.requests.length + light.requests.length).toBe(n);
  });

  it('retries on another channel, walking down the tiers, never back to a failed one, and logs the chain', async () => {
    await f.setOption('RetryTimes', '3');
    const [a, b, c] = [await upstream(), await upstream(), await upstream()];
    a.behaviour = { fail: { status: 500 } };
    b.behaviour = { fail: { status: 503 } };
    const idA = await f.channel({ base_url: a.url, key: a.key, models: 'gpt-4o-mini', priority: 5 });
    const idB = await f.channel({ base_url: b.url, key: b.key, models: 'gpt-4o-mini', priority: 5 });
    const idC = await f.channel({ base_url: c.url, key: c.key, models: 'gpt-4o-mini', priority: 1 });
    const res = await f.client(key).chat.completions.create(chat);
    expect(res.choices[0].message.content).toBeTruthy();
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    expect(c.requests).toHaveLength(1);
    await f.flush();
    const log = await f.t.app.ctx.db.kysely.selectFrom('logs').select(['other', 'channel_id']).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const chain = JSON.parse(log.other).admin_info.use_channel as number[];
    expect(chain.slice(0, 2).sort()).toEqual([idA, idB].sort());
    expect(chain[2]).toBe(idC);
    expect(log.channel_id).toBe(idC);
    await f.setOption('RetryTimes', '0');
  });

  it('does not retry a 400, but does when status_code_mapping turns it into a 500', async () => {
    await f.setOption('RetryTimes', '2');
    const [bad, good] = [await upstream(), await upstream()];
    bad.behaviour = { fail: { status: 400 } };
    await f.channel({ base_url: bad.url, key: bad.key, models: 'gpt-4o-mini', priority: 9 });
    await f.channel({ base_url: good.url, key: good.key, models: 'gpt-4o-mini', priority: 1 });
    await expect(f.client(key).chat.completions.create(chat)).rejects.toMatchObject({ status: 400 });
    expect(good.requests).toHaveLength(0);
    await clearChannels();
    bad.behaviour = { fail: { status: 400 } };
    await f.channel({ base_url: bad.url, key: bad.key, models: 'gpt-4o-mini', priority: 9, status_code_mapping: '{"400":"500"}' });
    await f.channel({ base_url: good.url, key: good.key, models: 'gpt-4o-mini', priority: 1 });
    await f.client(key).chat.completions.create(chat);
    expect(good.requests).toHaveLength(1);
    await f.setOption('RetryTimes', '0');
  });

  it('sends a pinned call (sk-KEY-CHANNEL) to that channel only, without retries', async () => {
    await f.setOption('RetryTimes', '3');
    const [x, y] = [await upstream(), await upstream()];
    await f.channel({ base_url: x.url, key: x.key, models: 'gpt-4o-mini', priority: 10 });
    const idY = await f.channel({ base_url: y.url, key: y.key, models: 'gpt-4o-mini', priority: 0 });
    await f.client(`${key}-${idY}`).chat.completions.create(chat);
    expect(y.requests).toHaveLength(1);
    expect(x.requests).toHaveLength(0);
    y.behaviour = { fail: { status: 500 } };
    await expect(f.client(`${key}-${idY}`).chat.completions.create(chat)).rejects.toMatchObject({ status: 500 });
    expect(x.requests).toHaveLength(0);
    await f.setOption('RetryTimes', '0');
  });

  it('maps the model name per channel and bills the requested one', async () => {
    const m = await upstream();
    await f.channel({ base_url: m.url, key: m.key, models: 'gpt-4o-mini', model_mapping: '{"gpt-4o-mini":"gpt-4o-mini-2024-07-18"}' });
    await f.client(key).chat.completions.create(chat);
    expect(m.requests[0].json!.model).toBe('gpt-4o-mini-2024-07-18');
    await f.flush();
    const log = await f.t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.model_name).toBe('gpt-4o-mini');
    expect(JSON.parse(log.other)).toMatchObject({ is_model_mapped: true, upstream_model_name: 'gpt-4o-mini-2024-07-18' });
  });

  it('builds Azure deployment URLs with the api-key header and api-version', async () => {
    const m = await upstream();
    await f.channel({ type: 3, base_url: m.url, key: m.key, models: 'gpt-3.5-turbo', other: '2024-10-21' });
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'gpt-3.5-turbo': 0.25 }));
    await f.client(key).chat.completions.create({ ...chat, model: 'gpt-3.5-turbo' });
    expect(m.requests[0].path).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-10-21');
    expect(m.requests[0].headers['api-key']).toBe(m.key);
    expect(m.requests[0].headers.authorization).toBeUndefined();
  });

  it('auto-disables a channel whose key is refused, keeping the reason, when enabled', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', 'true');
    const m = await upstream();
    const id = await f.channel({ base_url: m.url, key: 'sk-wrong', models: 'gpt-4o-mini' });
    // The caller is told the upstream refused the gateway (502); auto-disable sees the upstream's 401.
    await expect(f.client(key).chat.completions.create(chat)).rejects.toMatchObject({ status: 502 });
    await expect
      .poll(async () => (await f.t.app.ctx.db.kysely.selectFrom('channels').select(['status', 'other_info']).where('id', '=', id).executeTakeFirstOrThrow()).status)
      .toBe(3);
    const row = await f.t.app.ctx.db.kysely.selectFrom('channels').select('other_info').where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.other_info).status_reason).toContain('401');
    // Disabled channels take no more traffic.
    await expect(f.client(key).chat.completions.create(chat)).rejects.toMatchObject({ status: 503 });
    await f.setOption('AutomaticDisableChannelEnabled', 'false');
  });

  it('leaves a channel alone when its auto_ban is off', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', 'true');
    const m = await upstream();
    const id = await f.channel({ base_url: m.url, key: 'sk-wrong', models: 'gpt-4o-mini', auto_ban: 0 });
    await expect(f.client(key).chat.completions.create(chat)).rejects.toMatchObject({ status: 502 });
    await new Promise((r) => setTimeout(r, 100));
    const row = await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
    await f.setOption('AutomaticDisableChannelEnabled', 'false');
  });
});
