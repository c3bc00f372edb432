import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type Db } from '../db/connect.js';
import { testDatabases } from '../test/databases.js';
import { listenLocal, type LocalServer } from '../test/mocks/local-server.js';
import { fresh, startServerProcess, until, workerPids, type ServerProcess } from '../test/server-process.js';

/*
 * A worker killed outright (SIGKILL) under load takes with it only the calls it still had in flight: every call
 * whose answer a client received whole is charged, exactly once — its settlement was journaled before the answer
 * ended, and the primary replays the dead worker's journal. The caller is rich enough that its calls reserve
 * nothing, so no reservation stands in for the charge. Each call is told apart by the usage its upstream reports
 * (prompt tokens = its number + 1), so the consume logs say which calls were charged and how often.
 *
 * The worker dies while the database is slow to take writes (another connection holds its write lock for 700 ms,
 * then until the killed worker is gone): a worker serving calls then certainly holds settlements of answered calls
 * that are not written yet, rather than only when the kill happens to land inside its 100 ms batching window.
 */

const MODEL = 'gpt-4o';
const CALL_LANES = 12;
const STREAM_LANES = 10;

/** An OpenAI-shaped upstream whose usage names the call (the `user` field the client sent). */
function numberingUpstream(): Promise<LocalServer> {
  return listenLocal((_req, body, res) => {
    const json = JSON.parse(body.toString()) as { user: string; stream?: boolean };
    const usage = { prompt_tokens: Number(json.user) + 1, completion_tokens: 1, total_tokens: Number(json.user) + 2 };
    const chunk = (delta: object, extra: object = {}) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
    if (!json.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: MODEL, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const parts = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'one' }), chunk({ content: ' two' })];
    let i = 0;
    const next = () => {
      if (res.destroyed) return;
      if (i < parts.length) {
        res.write(parts[i++]);
        setTimeout(next, 15);
        return;
      }
      res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: MODEL, choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    next();
  });
}

const servers = testDatabases(['sqlite', 'postgres']);

/** Holds the database's write lock (SQLite) or the users table's (PostgreSQL) until the returned function is called. */
async function holdWrites(dsn: string, sqlitePath: string): Promise<() => Promise<void>> {
  const db = await connect(dsn, sqlitePath);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const done = db.kysely.transaction().execute(async (trx) => {
    // SQLite's transactions begin immediate (db/connect.ts): beginning one took the lock.
    if (db.dialect !== 'sqlite') await sql`lock table users in exclusive mode`.execute(trx);
    locked();
    await released;
  });
  await holding;
  return async () => {
    release();
    await done;
    await db.close();
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(servers)('a worker killed under load on $name', { timeout: 240_000 }, (database) => {
  let server: ServerProcess | null = null;
  let upstream: LocalServer | null = null;
  let books: Db | null = null;
  let drop: () => Promise<void> = async () => {};

  afterEach(async () => {
    if (server) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
      for (const pid of workerPids(server.child.pid!)) process.kill(pid, 'SIGKILL');
      server.cleanup();
    }
    await upstream?.close();
    if (books) await books.close();
    await drop();
    server = upstream = books = null;
  });

  it('charges every call whose answer a client received whole, exactly once', async () => {
    upstream = await numberingUpstream();
    let dsn = '';
    if (database.name !== 'sqlite') {
      const opened = await database.open();
      // Only its name is needed here: the server migrates it; the books are read on a connection of their own.
      await opened.db.close();
      dsn = opened.url!;
      drop = async () => {
        const admin = await connect(process.env.SWITCHYARD_TEST_PG!, '');
        await sql`drop database if exists ${sql.id(new URL(dsn).pathname.slice(1))} with (force)`.execute(admin.kysely);
        await admin.close();
      };
    }
    // Production defaults: two workers, the per-address limits on (relay calls are not counted by them).
    server = await startServerProcess({
      WORKERS: '2',
      SQL_DSN: dsn,
      GLOBAL_API_RATE_LIMIT_ENABLE: 'true',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true',
      CRITICAL_RATE_LIMIT_ENABLE: 'true',
    });
    const running = server;
    await until(() => workerPids(running.child.pid!), (p) => p.length === 2, 60_000);
    const headers = await running.rootHeaders();
    const admin = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${running.url}${path}`, { method, headers, body: JSON.stringify(body) });
      const json = (await res.json()) as { success: boolean; message: string; data: Record<string, unknown> };
      if (!json.success) throw new Error(json.message);
      return json.data;
    };
    await admin('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1.25 }) });
    await admin('POST', '/api/channel/', { type: 1, name: 'numbered', group: 'default', base_url: upstream.url, key: 'sk-up', models: MODEL });
    const token = await admin('POST', '/api/token/', { name: 'rich', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    const auth = { authorization: `Bearer sk-${String(token.key)}`, 'content-type': 'application/json' };

    const received = new Set<number>();
    const failed = new Set<number>();
    let next = 0;
    let stop = false;
    const lane = async (stream: boolean) => {
      while (!stop) {
        const n = next++;
        const body = JSON.stringify({ model: MODEL, user: String(n), stream, stream_options: stream ? { include_usage: true } : undefined, messages: [{ role: 'user', content: 'hi' }] });
        try {
          // A connection of its own: the primary hands calls to both workers in turn. One handed to the worker as it
          // died may never be answered at all.
          const res = await fresh(`${running.url}/v1/chat/completions`, { method: 'POST', headers: auth, body, signal: AbortSignal.timeout(20_000) });
          const text = await res.text();
          const whole = res.status === 200 && (stream ? text.trimEnd().endsWith('data: [DONE]') : (JSON.parse(text) as { usage?: unknown }).usage !== undefined);
          (whole ? received : failed).add(n);
        } catch {
          failed.add(n);
        }
      }
    };
    const lanes = [...Array.from({ length: CALL_LANES }, () => lane(false)), ...Array.from({ length: STREAM_LANES }, () => lane(true))];
    await until(() => received.size, (n) => n >= 300, 60_000);
    const [victim] = workerPids(running.child.pid!);
    const releaseWrites = await holdWrites(dsn, running.sqlitePath);
    // The database stays slow for a while: this is the scenario, not a wait for an event. (On SQLite the calls
    // themselves stop behind the lock, so there is no count of answers to wait for; what the workers hold unwritten
    // is in them, out of the test's sight.)
    await sleep(700);
    process.kill(victim, 'SIGKILL');
    // Gone (pgrep matches no dead process) before the writes resume, so it cannot write what it held.
    await until(() => workerPids(running.child.pid!), (p) => !p.includes(victim), 10_000);
    await releaseWrites();
    // The node keeps answering on the other worker, and on the one that replaces the dead one.
    await until(() => workerPids(running.child.pid!), (p) => p.length === 2 && !p.includes(victim), 30_000);
    const after = received.size;
    await until(() => received.size, (n) => n >= after + 200, 60_000);
    stop = true;
    await Promise.all(lanes);
    expect(running.output()).toContain('charged the calls that processes of this host answered before they died');
    // A clean stop writes everything the live workers hold.
    running.child.kill('SIGTERM');
    expect((await running.exited).code).toBe(0);

    books = await connect(dsn, running.sqlitePath);
    const k = books.kysely;
    const logs = await k.selectFrom('logs').select(['prompt_tokens', 'quota']).where('user_id', '=', 1).where('type', '=', 2).execute();
    const charged = logs.map((l) => l.prompt_tokens - 1);
    const once = new Set(charged);
    expect(charged.length, 'no call is charged twice').toBe(once.size);
    const unchargedReceived = [...received].filter((n) => !once.has(n));
    expect(unchargedReceived, `of ${received.size} answers received whole`).toEqual([]);
    // Beyond those, only calls whose client got no whole answer: they were in flight when the worker died.
    expect([...once].filter((n) => !received.has(n) && !failed.has(n))).toEqual([]);
    const sum = logs.reduce((s, l) => s + l.quota, 0);
    const root = await k.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', 1).executeTakeFirstOrThrow();
    expect({ spent: 100_000_000 - Number(root.quota), used: Number(root.used_quota), requests: Number(root.request_count) }).toEqual({ spent: sum, used: sum, requests: logs.length });
    expect(await k.selectFrom('reservations').select('id').execute()).toEqual([]);
  });
});
