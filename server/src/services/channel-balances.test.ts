import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { testDatabases } from '../test/databases.js';
import { COMPAT_KEY, startCompatibleMock, type CompatibleMock } from '../test/mocks/compatible.js';

/* The console's balance update stores what the upstream reports in US dollars, at the system's yuan price. */

describe.each(testDatabases())('channel balance updates on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let mock: CompatibleMock;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.call(root, { method, url, payload });
    return res.json() as { success: boolean; message: string; data: unknown; balance?: number };
  };

  beforeAll(async () => {
    mock = await startCompatibleMock();
    t = await startTestApp(database);
    root = await t.root();
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('converts a DeepSeek yuan balance at the Price option and stores it with its time', async () => {
    expect((await call('PUT', '/api/option/', { key: 'Price', value: '7' })).success).toBe(true);
    const name = 'deepseek-balance';
    await call('POST', '/api/channel/', { type: 43, name, key: COMPAT_KEY, base_url: `${mock.url}/deepseek`, models: 'deepseek-chat', group: 'default' });
    const [row] = (await call('GET', `/api/channel/search?keyword=${name}`)).data as Array<{ id: number }>;
    const updated = await call('GET', `/api/channel/update_balance/${row.id}`);
    expect(updated.success).toBe(true);
    expect(updated.balance).toBeCloseTo(36.5 / 7, 10);
    const stored = (await call('GET', `/api/channel/${row.id}`)).data as { balance: number; balance_updated_time: number };
    expect(stored.balance).toBeCloseTo(36.5 / 7, 10);
    expect(stored.balance_updated_time).toBeGreaterThan(0);
  });
});
