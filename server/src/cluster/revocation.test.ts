import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, type TestDatabase } from '../test/databases.js';
import { needs } from '../test/services.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startPrivateRedis, type PrivateRedis } from '../test/private-redis.js';
import { fresh, startServerProcess, until, workerPids, type ServerProcess } from '../test/server-process.js';

/*
 * A change that withdraws access or money, made on a node with two workers: the console answers only once every
 * worker has dropped what it cached, so a call sent the moment the answer arrives — on a connection of its own,
 * which the primary hands to the other worker in turn — is judged on the change, every time.
 */

const MODEL = 'gpt-4o';
const ROUNDS = 20;

type ConsoleCall = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Console calls on one sign-in (the critical limit counts sign-ins). */
async function signedIn(url: string, username: string, password: string): Promise<ConsoleCall> {
  const res = await fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await res.json()) as { success: boolean; message: string; data: { id: number } };
  if (!body.success) throw new Error(body.message);
  const headers = { cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), 'new-api-user': String(body.data.id), 'content-type': 'application/json' };
  return async (method, path, payload) => {
    const r = await fetch(`${url}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
    const json = (await r.json()) as { success: boolean; message: string; data: Record<string, unknown> };
    if (!json.success) throw new Error(json.message);
    return json.data;
  };
}

const postgres = testDatabases(['postgres'])[0];
// PostgreSQL too: its reads are truly asynchronous, so a reload a worker starts on a change is still running when
// the next call reaches it (SQLite's reads finish before anything else runs).
const setups: Array<{ name: string; redis: boolean; database?: TestDatabase }> = [
  { name: 'SQLite, through the primary', redis: false },
  ...(postgres ? [{ name: 'PostgreSQL, through the primary', redis: false, database: postgres }] : []),
  ...(needs(['redis-server'], 'revocations through Redis and the primary') ? [{ name: 'SQLite, through Redis and the primary', redis: true }] : []),
];

describe.each(setups)('revocations on a node with two workers ($name)', { timeout: 240_000 }, ({ redis: useRedis, database }) => {
  let upstream: MockOpenAI;
  let redis: PrivateRedis | undefined;
  let drop: (() => Promise<void>) | undefined;
  let server: ServerProcess;
  let root: ConsoleCall;
  let member: ConsoleCall;
  let memberId: number;

  beforeAll(async () => {
    upstream = await startMockOpenAI('sk-up');
    redis = useRedis ? await startPrivateRedis() : undefined;
    const opened = await database?.open();
    drop = opened?.drop;
    server = await startServerProcess({
      WORKERS: '2',
      ...(redis ? { REDIS_CONN_STRING: redis.url } : {}),
      ...(opened ? { SQL_DSN: opened.url! } : {}),
      // Every limit on; the relay and console ones raised because these rounds make more calls from one address
      // than the defaults allow in three minutes.
      GLOBAL_API_RATE_LIMIT_ENABLE: 'true',
      GLOBAL_API_RATE_LIMIT: '5000',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true',
      GLOBAL_WEB_RATE_LIMIT: '5000',
      CRITICAL_RATE_LIMIT_ENABLE: 'true',
    });
    await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
    root = await signedIn(server.url, 'root', '123456');
    await root('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1.25 }) });
    await root('PUT', '/api/option/', { key: 'QuotaForNewUser', value: '500000000' });
    await root('POST', '/api/channel/', { type: 8, name: 'up', group: 'default', base_url: upstream.url, key: upstream.key, models: MODEL });
    await root('POST', '/api/user/', { username: 'revoked', password: 'password123' });
    member = await signedIn(server.url, 'revoked', 'password123');
    memberId = Number((await member('GET', '/api/user/self')).id);
  }, 120_000);

  afterAll(async () => {
    const pids = server ? workerPids(server.child.pid!) : [];
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    server?.cleanup();
    await drop?.();
    await redis?.close();
    await upstream?.close();
  });

  const chat = (key: string) =>
    fresh(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });

  /** Rounds of: allow, let both workers cache the allowed state, withdraw, call at once. The statuses served. */
  async function servedAfterWithdrawal(key: string, allow: () => Promise<unknown>, withdraw: () => Promise<unknown>): Promise<number[]> {
    const served: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await allow();
      // Two calls on connections of their own: one on each worker, which then holds the token and user in memory.
      expect([await chat(key), await chat(key)]).toEqual([200, 200]);
      await withdraw();
      const status = await chat(key);
      if (status === 200) served.push(round);
    }
    return served;
  }

  const newToken = async (owner: ConsoleCall) => {
    const token = await owner('POST', '/api/token/', { name: `t${Date.now()}`, remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    return { id: Number(token.id), key: `sk-${String(token.key)}` };
  };

  it('refuses the first call after a token is disabled', async () => {
    const token = await newToken(member);
    const status = (s: number) => () => member('PUT', '/api/token/?status_only=true', { id: token.id, status: s });
    expect(await servedAfterWithdrawal(token.key, status(1), status(2))).toEqual([]);
  });

  it("refuses the first call after a token's quota is set to 0", async () => {
    const token = await newToken(member);
    const quota = (remain: number, unlimited: boolean) => () =>
      member('PUT', '/api/token/', { id: token.id, name: 'quota', remain_quota: remain, unlimited_quota: unlimited, expired_time: -1 });
    expect(await servedAfterWithdrawal(token.key, quota(0, true), quota(0, false))).toEqual([]);
  });

  it('refuses the first call after the user is disabled', async () => {
    const token = await newToken(member);
    const manage = (action: string) => () => root('POST', '/api/user/manage', { id: memberId, action });
    expect(await servedAfterWithdrawal(token.key, manage('enable'), manage('disable'))).toEqual([]);
    await manage('enable')();
    // A ban ends the account's sessions for good (auth/session.ts): the next tests sign in again.
    member = await signedIn(server.url, 'revoked', 'password123');
  });

  it("refuses the first call after the model's price is removed (an option change)", async () => {
    const token = await newToken(member);
    const ratio = (ratios: Record<string, number>) => () => root('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
    expect(await servedAfterWithdrawal(token.key, ratio({ [MODEL]: 1.25 }), ratio({}))).toEqual([]);
    await ratio({ [MODEL]: 1.25 })();
  });

  it('refuses the first call after the only channel is disabled', async () => {
    const token = await newToken(member);
    const channels = (await root('GET', '/api/channel/?p=0&page_size=10')) as unknown as Array<{ id: number }> | { items: Array<{ id: number }> };
    const id = (Array.isArray(channels) ? channels : channels.items)[0].id;
    const status = (s: number) => () => root('PUT', '/api/channel/', { id, status: s });
    expect(await servedAfterWithdrawal(token.key, status(1), status(2))).toEqual([]);
  });
});
