import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { itWithServices, testRedisUrl } from '../test/services.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { createBus, LocalBus, type RedisBus } from '../cache/bus.js';
import { saveOptionRow } from '../store/options.js';
import { Options } from './index.js';
import { parseOption } from './parse.js';

describe('option parsing', () => {
  it('parses booleans, numbers and JSON by the type of the default', () => {
    expect(parseOption('DrawingEnabled', 'false')).toEqual({ ok: true, value: false });
    expect(parseOption('RetryTimes', '3')).toEqual({ ok: true, value: 3 });
    expect(parseOption('GroupRatio', '{"vip":1.5}')).toEqual({ ok: true, value: { vip: 1.5 } });
    expect(parseOption('SystemName', 'x')).toEqual({ ok: true, value: 'x' });
  });
  it('refuses values of the wrong shape', () => {
    expect(parseOption('DrawingEnabled', 'yes').ok).toBe(false);
    expect(parseOption('RetryTimes', '1.5').ok).toBe(false);
    expect(parseOption('RetryTimes', '-1').ok).toBe(false);
    expect(parseOption('DataExportInterval', '0').ok).toBe(false);
    expect(parseOption('GroupRatio', '{"vip":-1}').ok).toBe(false);
    expect(parseOption('ModelRatio', '{"gpt":"a"}').ok).toBe(false);
    expect(parseOption('Chats', '{}').ok).toBe(false);
  });
});

describe.each(testDatabases())('options store on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  it('starts from defaults, lets rows override, and ignores unusable rows', async () => {
    await saveOptionRow(db.kysely, 'RetryTimes', '2');
    await saveOptionRow(db.kysely, 'QuotaPerUnit', 'not-a-number');
    const warnings: string[] = [];
    const options = new Options(db.kysely, new LocalBus(), (m) => warnings.push(m));
    await options.load();
    expect(options.get('RetryTimes')).toBe(2);
    expect(options.get('QuotaPerUnit')).toBe(500000);
    expect(options.get('SystemName')).toBe('Switchyard');
    expect(warnings).toHaveLength(1);
  });

  it('saves a change and shows it at once; a refused value changes nothing', async () => {
    const options = new Options(db.kysely, new LocalBus());
    await options.load();
    expect(await options.set('SystemName', '网关')).toBeNull();
    expect(options.get('SystemName')).toBe('网关');
    expect(await options.set('RetryTimes', 'abc')).not.toBeNull();
    expect(options.get('RetryTimes')).toBe(2);
    expect(await options.set('NoSuchKey', '1')).toBe('未知的配置项：NoSuchKey');
  });

  itWithServices(['redis'], 'propagates a change to another node through Redis', async () => {
    const url = testRedisUrl();
    const busA = (await createBus(url)) as RedisBus;
    const busB = (await createBus(url)) as RedisBus;
    try {
      const a = new Options(db.kysely, busA);
      const b = new Options(db.kysely, busB);
      await Promise.all([a.load(), b.load(), busA.ready(), busB.ready()]);
      const value = `node-${database.name}-${Date.now()}`;
      expect(await a.set('Notice', value)).toBeNull();
      await expect.poll(() => b.get('Notice'), { timeout: 5000 }).toBe(value);
    } finally {
      await busA.close();
      await busB.close();
    }
  });
});
