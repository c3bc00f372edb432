import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { fresh, startServerProcess, until, workerPids, type ServerProcess } from '../test/server-process.js';

/*
 * A node with two workers (WORKERS=2) behind one primary, as `npm start` runs on a two-core machine: both serve
 * the port; a console change is seen by every worker at once; the rate limits count for the node, not per worker;
 * a worker killed mid-call is replaced and the balance its call reserved goes back to the user; SIGTERM ends it all.
 */

const MODEL = 'gpt-4o';

describe('a node with two workers', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let upstream: MockOpenAI | null = null;

  afterEach(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
    for (const pid of workerPids(server.child.pid!)) process.kill(pid, 'SIGKILL');
    server.cleanup();
    await upstream?.close();
    upstream = null;
  });

  const consoleApi = (method: string, path: string, body?: unknown) => server.consoleApi(method, path, body);

  it('serves from both workers, and a token disabled on one is refused by every worker at once', async () => {
    server = await startServerProcess({ WORKERS: '2' });
    expect(await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000)).toHaveLength(2);
    const token = await consoleApi('POST', '/api/token/', { name: 'cached', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    const auth = { authorization: `Bearer sk-${String(token.key)}` };
    // Every worker reads the token into its cache.
    for (let i = 0; i < 8; i++) expect((await fresh(`${server.url}/v1/models`, { headers: auth })).status).toBe(200);
    await consoleApi('PUT', '/api/token/?status_only=true', { id: token.id, status: 2 });
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await fresh(`${server.url}/v1/models`, { headers: auth })).status);
    expect(statuses).toEqual(Array(8).fill(401));
  });

  it('counts a rate limit for the node, not once per worker', async () => {
    server = await startServerProcess({ WORKERS: '2', GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true', GLOBAL_WEB_RATE_LIMIT: '6', GLOBAL_WEB_RATE_LIMIT_DURATION: '120' });
    await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await fresh(`${server.url}/some-page`)).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });

  it('replaces a worker killed mid-call and gives back what its call reserved', async () => {
    upstream = await startMockOpenAI('sk-up');
    upstream.behaviour = { headDelayMs: 120_000 };
    server = await startServerProcess({ WORKERS: '2' });
    await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
    await consoleApi('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1.25 }) });
    await consoleApi('POST', '/api/channel/', { type: 8, name: 'up', group: 'default', base_url: upstream.url, key: upstream.key, models: MODEL });
    const token = await consoleApi('POST', '/api/token/', { name: 'slow', remain_quota: 50_000_000, unlimited_quota: false, expired_time: -1 });
    const balances = () => {
      const db = new Database(server.sqlitePath, { readonly: true });
      try {
        // One snapshot: the primary gives a reservation back in one transaction, which reads apart could straddle.
        return db.transaction(() => {
          const user = (db.prepare('select quota from users where id = 1').get() as { quota: number }).quota;
          const remain = (db.prepare('select remain_quota from tokens where id = ?').get(token.id) as { remain_quota: number }).remain_quota;
          const held = db.prepare('select holder, amount from reservations').all() as Array<{ holder: string; amount: number }>;
          return { user, remain, held };
        })();
      } finally {
        db.close();
      }
    };
    const before = balances();
    // A cap on the answer this large makes the call reserve (its estimate is not small next to the balance).
    const call = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${String(token.key)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, max_tokens: 1_000_000, messages: [{ role: 'user', content: 'hi' }] }),
    }).catch(() => null);
    await until(() => upstream!.requests.length, (n) => n === 1);
    const during = balances();
    expect(during.held).toHaveLength(1);
    expect(during.user).toBe(before.user - during.held[0].amount);
    expect(during.remain).toBe(before.remain - during.held[0].amount);
    const victim = Number(during.held[0].holder.split('/')[1]);
    const pidsBefore = workerPids(server.child.pid!);
    expect(pidsBefore).toContain(victim);

    process.kill(victim, 'SIGKILL');
    expect((await call)?.status ?? 0).not.toBe(200);
    const after = await until(balances, (b) => b.held.length === 0);
    expect(after).toEqual({ user: before.user, remain: before.remain, held: [] });
    // A new worker takes the dead one's place, and the node keeps answering.
    const pidsAfter = await until(() => workerPids(server.child.pid!), (p) => p.length === 2 && !p.includes(victim));
    expect(pidsAfter).not.toContain(victim);
    expect((await fresh(`${server.url}/api/status`)).status).toBe(200);
    expect(server.output()).toContain('gave back the balance reserved by the calls of a worker that died');
  });

  it("answers a scrape on any worker with the whole node's figures", async () => {
    upstream = await startMockOpenAI('sk-up');
    server = await startServerProcess({ WORKERS: '2', METRICS_TOKEN: 'node-scrape-token' });
    await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
    await consoleApi('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1.25 }) });
    await consoleApi('POST', '/api/channel/', { type: 8, name: 'up', group: 'default', base_url: upstream.url, key: upstream.key, models: MODEL });
    const token = await consoleApi('POST', '/api/token/', { name: 'metered', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    for (let i = 0; i < 6; i++) {
      const res = await fresh(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${String(token.key)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // The calls were spread over both workers (a connection each, handed out in turn); every scrape, whichever
    // worker takes it, counts all six.
    for (let i = 0; i < 4; i++) {
      const text = await (await fresh(`${server.url}/metrics`, { headers: { authorization: 'Bearer node-scrape-token' } })).text();
      const total = text
        .split('\n')
        .filter((l) => l.startsWith('switchyard_relay_requests_total{'))
        .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
      expect(total).toBe(6);
    }
  });

  it('stops every worker and exits cleanly on SIGTERM', async () => {
    server = await startServerProcess({ WORKERS: '2' });
    const pids = await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
