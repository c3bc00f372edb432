import OpenAI from 'openai';
import type { AddressInfo } from 'node:net';
import { startTestApp, type Session, type TestApp } from './app.js';
import type { TestDatabase } from './databases.js';

/** A relay under test: the app listening on a real port, root signed in, helpers to make channels and tokens. */
export interface RelayFixture {
  t: TestApp;
  root: Session;
  baseUrl: string;
  /** Creates a channel through the console API and returns its id. */
  channel(fields: Record<string, unknown>): Promise<number>;
  /** Creates a token for root through the console API and returns its key with sk-. */
  token(fields?: Record<string, unknown>): Promise<{ id: number; key: string }>;
  client(key: string, opts?: { maxRetries?: number }): OpenAI;
  setOption(key: string, value: string): Promise<void>;
  /** Writes pending settlements and logs. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function startRelay(database: TestDatabase, env: Record<string, string> = {}): Promise<RelayFixture> {
  const t = await startTestApp(database, env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const root = await t.root();
  const expectOk = (res: { json(): unknown }) => {
    const body = res.json() as { success: boolean; message: string; data: unknown };
    if (!body.success) throw new Error(body.message);
    return body.data;
  };
  return {
    t,
    root,
    baseUrl,
    async channel(fields) {
      const payload = { type: 1, name: `ch-${Math.random().toString(36).slice(2, 8)}`, group: 'default', auto_ban: 1, ...fields };
      expectOk(await t.call(root, { method: 'POST', url: '/api/channel/', payload }));
      const rows = expectOk(await t.call(root, { method: 'GET', url: `/api/channel/search?keyword=${encodeURIComponent(String(payload.name))}` })) as Array<{ id: number; name: string }>;
      const found = rows.find((r) => r.name === payload.name);
      if (!found) throw new Error('channel not found after create');
      return found.id;
    },
    async token(fields = {}) {
      const payload = { name: `tok-${Math.random().toString(36).slice(2, 8)}`, remain_quota: 0, unlimited_quota: true, expired_time: -1, ...fields };
      const data = expectOk(await t.call(root, { method: 'POST', url: '/api/token/', payload })) as { id: number; key: string };
      return { id: data.id, key: `sk-${data.key}` };
    },
    client(key, opts = {}) {
      // A bound on waiting, not a latency check: with several files at a time, 300 calls at once on PostgreSQL or
      // MySQL took over 20 s to all be answered on a loaded 2-core machine.
      return new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: opts.maxRetries ?? 0, timeout: 45_000 });
    },
    async setOption(key, value) {
      expectOk(await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key, value } }));
    },
    flush: () => t.app.ctx.relay.settler.flush(),
    close: () => t.close(),
  };
}
