import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { itWithServices, testRedisUrl } from '../test/services.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertChannels, setChannelStatus, updateChannel } from '../store/channels.js';
import { channelInput } from '../test/channel-input.js';
import { createBus, LocalBus, type RedisBus } from './bus.js';
import { RoutingTable } from './routing.js';

const channel = channelInput;

describe.each(testDatabases())('routing table on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());
  beforeEach(async () => {
    await db.kysely.deleteFrom('channels').execute();
    await db.kysely.deleteFrom('abilities').execute();
  });

  it('groups enabled channels in priority tiers, highest first, heavier first inside a tier', async () => {
    const [low, highLight, highHeavy, disabled, other] = await insertChannels(db.kysely, [
      channel({ name: 'low', priority: -5 }),
      channel({ name: 'high-light', priority: 10, weight: 1 }),
      channel({ name: 'high-heavy', priority: 10, weight: 50 }),
      channel({ name: 'off', priority: 20, status: 2 }),
      channel({ name: 'vip', priority: 30, group: 'vip', models: 'gpt-4o,o3' }),
    ]);
    const routing = new RoutingTable(db.kysely);
    await routing.load();
    const tiers = routing.tiers('default', 'gpt-4o');
    expect(tiers.map((tier) => tier.map((c) => c.id))).toEqual([[highHeavy, highLight], [low]]);
    expect(routing.tiers('vip', 'gpt-4o')[0][0].id).toBe(other);
    expect(routing.tiers('default', 'o3')).toEqual([]);
    expect(routing.tiers('nope', 'gpt-4o')).toEqual([]);
    expect(routing.channel(disabled)?.status).toBe(2);
    expect(routing.models(['default'])).toEqual(['gpt-4o']);
    expect(routing.models(['default', 'vip'])).toEqual(['gpt-4o', 'o3']);
    expect(routing.models([])).toEqual([]);
  });

  it('parses channel JSON fields into the relay shape', async () => {
    const [id] = await insertChannels(db.kysely, [
      channel({
        base_url: 'https://up.example/',
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
        status_code_mapping: '{"400":500}',
        setting: '{"proxy":"x"}',
        param_override: 'not json',
        models: ' gpt-4o , o3,gpt-4o',
        group: 'default, vip',
        auto_ban: 0,
        openai_organization: 'org-1',
      }),
    ]);
    const routing = new RoutingTable(db.kysely);
    await routing.load();
    expect(routing.channel(id)).toMatchObject({
      baseUrl: 'https://up.example',
      modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
      statusCodeMapping: { '400': '500' },
      setting: { proxy: 'x' },
      paramOverride: {},
      models: ['gpt-4o', 'o3'],
      groups: ['default', 'vip'],
      autoBan: false,
      organization: 'org-1',
    });
  });

  it('knows which models a group lists, counting channels that are switched off', async () => {
    await insertChannels(db.kysely, [channel({ models: 'gpt-4o' }), channel({ models: 'o3', status: 3 }), channel({ models: 'o1', group: 'vip' })]);
    const routing = new RoutingTable(db.kysely);
    await routing.load();
    expect(routing.lists('default', 'gpt-4o')).toBe(true);
    expect(routing.lists('default', 'o3')).toBe(true);
    expect(routing.tiers('default', 'o3')).toEqual([]);
    expect(routing.lists('default', 'o1')).toBe(false);
    expect(routing.lists('default', 'nope')).toBe(false);
  });

  it('swaps whole snapshots: a reader keeps the tiers it got while the table reloads', async () => {
    const [id] = await insertChannels(db.kysely, [channel({})]);
    const routing = new RoutingTable(db.kysely);
    await routing.load();
    const before = routing.tiers('default', 'gpt-4o');
    await updateChannel(db.kysely, id, { models: 'o3' });
    await Promise.all([routing.load(), routing.load(), routing.load()]);
    expect(before[0][0].id).toBe(id);
    expect(routing.tiers('default', 'gpt-4o')).toEqual([]);
    expect(routing.tiers('default', 'o3')[0][0].id).toBe(id);
  });

  it('setChannelStatus writes status, reason and abilities together, and refreshes routing', async () => {
    const [id] = await insertChannels(db.kysely, [channel({})]);
    const routing = new RoutingTable(db.kysely);
    await routing.load();
    const ctx = { db, routing, bus: new LocalBus() };
    expect(await setChannelStatus(ctx, id, 3, 'invalid key')).toBe(true);
    expect(await setChannelStatus(ctx, id, 3, 'again')).toBe(false);
    expect(routing.tiers('default', 'gpt-4o')).toEqual([]);
    const row = await db.kysely.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.other_info)).toMatchObject({ status_reason: 'invalid key', status_time: expect.any(Number) });
    const ability = await db.kysely.selectFrom('abilities').select('enabled').where('channel_id', '=', id).execute();
    expect(ability).toEqual([{ enabled: 0 }]);
    // Auto-enable only lifts automatic disables.
    await setChannelStatus(ctx, id, 2);
    expect(await setChannelStatus(ctx, id, 1, '', [3])).toBe(false);
    await setChannelStatus(ctx, id, 3, 'x');
    expect(await setChannelStatus(ctx, id, 1, '', [3])).toBe(true);
    expect(routing.tiers('default', 'gpt-4o')[0][0].id).toBe(id);
  });

  itWithServices(['redis'], 'reloads on other nodes through the bus', async () => {
    const url = testRedisUrl();
    const busA = (await createBus(url)) as RedisBus;
    const busB = (await createBus(url)) as RedisBus;
    try {
      const a = new RoutingTable(db.kysely, busA);
      const b = new RoutingTable(db.kysely, busB);
      await Promise.all([a.load(), b.load(), busA.ready(), busB.ready()]);
      const [id] = await insertChannels(db.kysely, [channel({ models: `node-${database.name}` })]);
      expect(b.tiers('default', `node-${database.name}`)).toEqual([]);
      await setChannelStatus({ db, routing: a, bus: busA }, id, 2);
      await expect.poll(() => b.channel(id)?.status, { timeout: 5000 }).toBe(2);
    } finally {
      await busA.close();
      await busB.close();
    }
  });
});
