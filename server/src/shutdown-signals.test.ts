import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from './test/mock-openai.js';
import { startServerProcess, until, type ServerProcess } from './test/server-process.js';

/*
 * The server process under real signals. SIGTERM with streams open exits within SHUTDOWN_TIMEOUT, every time, with
 * every call billed; a second SIGTERM exits at once after writing what is owed; after a SIGKILL the next start on
 * the same data charges every call the killed process answered (its settlement journal), and nothing twice.
 */

const MODEL = 'gpt-4o';
/** Calls a lane may have had in flight when the process died (answered by the server, not received whole). */
const LANES = 8;

interface Books {
  quotaDrop: number;
  logs: number;
  logged: number;
}

describe('shutdown under signals', () => {
  let upstream: MockOpenAI;
  let server: ServerProcess;
  let initialQuota = 0;

  async function start(env: Record<string, string>): Promise<string> {
    upstream = await startMockOpenAI('sk-up');
    server = await startServerProcess(env);
    const headers = await server.rootHeaders();
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers, body: JSON.stringify(body) });
      const json = (await res.json()) as { success: boolean; message: string; data: { key: string } };
      if (!json.success) throw new Error(json.message);
      return json.data;
    };
    await call('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1.25 }) });
    await call('POST', '/api/channel/', { type: 8, name: 'up', group: 'default', base_url: upstream.url, key: upstream.key, models: MODEL });
    const token = await call('POST', '/api/token/', { name: 'load', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    const db = new Database(server.sqlitePath, { readonly: true });
    initialQuota = (db.prepare('select quota from users where id = 1').get() as { quota: number }).quota;
    db.close();
    return `sk-${token.key}`;
  }

  afterEach(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
    server.cleanup();
    await upstream.close();
  });

  function books(): Books {
    const db = new Database(server.sqlitePath, { readonly: true });
    const quota = (db.prepare('select quota from users where id = 1').get() as { quota: number }).quota;
    const row = db.prepare('select count(*) as n, coalesce(sum(quota), 0) as q from logs where type = 2').get() as { n: number; q: number };
    db.close();
    return { quotaDrop: initialQuota - quota, logs: row.n, logged: row.q };
  }

  function openStream(key: string, onFirst: () => void): Promise<string> {
    return fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    }).then(async (res) => {
      let text = '';
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return text;
        text += Buffer.from(value!).toString();
        onFirst();
      }
    });
  }

  async function openStreams(key: string, n: number): Promise<Array<Promise<string>>> {
    const begun: Array<Promise<void>> = [];
    const streams = Array.from({ length: n }, () => {
      let first!: () => void;
      begun.push(new Promise((r) => (first = r)));
      return openStream(key, () => first());
    });
    await Promise.all(begun);
    return streams;
  }

  it('exits within SHUTDOWN_TIMEOUT on SIGTERM with streams open, every stream billed', async () => {
    const key = await start({ SHUTDOWN_TIMEOUT: '4' });
    upstream.behaviour = { delayMs: 30, chunks: Array.from({ length: 1000 }, (_, i) => ` w${i}`) };
    const streams = await openStreams(key, 5);
    const sentAt = Date.now();
    server.child.kill('SIGTERM');
    const texts = await Promise.all(streams);
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(4000);
    for (const text of texts) expect(text).toContain('服务正在关闭，请稍后重试');
    const b = books();
    expect(b.logs).toBe(5);
    expect(b.logged).toBeGreaterThan(0);
    expect(b.quotaDrop).toBe(b.logged);
  });

  it('exits at once after writing what is owed on a second SIGTERM', async () => {
    const key = await start({ SHUTDOWN_TIMEOUT: '60' });
    upstream.behaviour = { delayMs: 30, chunks: Array.from({ length: 1000 }, (_, i) => ` w${i}`) };
    const streams = await openStreams(key, 3);
    const sentAt = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGTERM');
    await Promise.all(streams);
    const { at } = await server.exited;
    expect(at - sentAt).toBeLessThan(5000);
    const b = books();
    expect(b.logs).toBe(3);
    expect(b.quotaDrop).toBe(b.logged);
  });

  it('charges at the next start every call a process killed with SIGKILL had answered', async () => {
    const key = await start({});
    upstream.behaviour = {};
    const answeredAt: number[] = [];
    let running = true;
    const worker = async () => {
      while (running) {
        const res = await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
        }).catch(() => null);
        if (!res) return;
        const ok = res.ok && (await res.text().catch(() => '')).includes('chat.completion');
        if (ok) answeredAt.push(Date.now());
      }
    };
    const workers = Array.from({ length: LANES }, () => worker());
    // Killed under load, once well past the bar below: the calls answered last are still in the journal only.
    await until(() => answeredAt.length, (n) => n > 20, 30_000);
    server.child.kill('SIGKILL');
    running = false;
    await Promise.all(workers);
    await server.exited;
    expect(answeredAt.length).toBeGreaterThan(10);
    // The next start of the node, on the same data folder (no primary saw the process die).
    const killed = server;
    const restarted = await startServerProcess({ SQLITE_PATH: killed.sqlitePath });
    restarted.child.kill('SIGTERM');
    await restarted.exited;
    restarted.cleanup();
    const b = books();
    // Every call answered is in the books; beyond them, only calls that were in flight.
    expect(b.logs).toBeGreaterThanOrEqual(answeredAt.length);
    expect(b.logs).toBeLessThanOrEqual(answeredAt.length + LANES);
    // What was written balances: a batch lands whole or not at all, and once.
    expect(b.quotaDrop).toBe(b.logged);
  });
});
