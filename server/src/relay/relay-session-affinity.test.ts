import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPrices } from '../test/billing.js';
import { testDatabases } from '../test/databases.js';
import { chatAnswer, startScriptedUpstream, type ScriptedUpstream } from '../test/mocks/scripted.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';

/*
 * Turns of one agent session go to the channel and key that answered the last one (session-affinity.ts), so the
 * upstream reads the prefix it cached instead of writing it again elsewhere; calls without a session spread as the
 * weights say, and a failed channel lets the session move.
 */

const MODEL = 'gpt-4o-mini';
const KEYS = ['sk-key-a', 'sk-key-b', 'sk-key-c'];

describe.each(testDatabases(['sqlite']))('session affinity on $name', (database) => {
  let f: RelayFixture;
  let a: ScriptedUpstream;
  let b: ScriptedUpstream;
  let key: string;
  let channelB: number;
  const ok = () => ({ json: chatAnswer({ content: 'ok' }) });

  beforeAll(async () => {
    [a, b] = await Promise.all([startScriptedUpstream(ok), startScriptedUpstream(ok)]);
    f = await startRelay(database);
    await setPrices(f, { [MODEL]: { ratio: 1, completion: 1 } });
    await f.channel({ base_url: a.url, key: 'sk-only-a', models: MODEL });
    const res = await f.t.call(f.root, {
      method: 'POST',
      url: '/api/channel/',
      payload: { mode: 'multi_to_single', multi_key_mode: 'random', channel: { name: 'pool-b', type: 1, base_url: b.url, key: KEYS.join('\n'), models: MODEL, group: 'default', auto_ban: 0 } },
    });
    channelB = (res.json() as { data: number[] }).data[0];
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await Promise.all([a.close(), b.close()]);
  });

  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
  const claude = (userId: string) =>
    fetch(`${f.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: userId } }),
    });
  /** Where the calls `run` makes went: upstream and key of each. */
  async function landings(run: () => Promise<void>): Promise<string[]> {
    const from = { a: a.requests.length, b: b.requests.length };
    await run();
    const at = (u: ScriptedUpstream, name: string, start: number) => u.requests.slice(start).map((r) => `${name}:${String(r.headers.authorization).slice(7)}`);
    return [...at(a, 'a', from.a), ...at(b, 'b', from.b)];
  }
  const turns = async (n: number, call: () => Promise<Response>) => {
    for (let i = 0; i < n; i++) expect((await call()).status).toBe(200);
  };

  it('sends every turn of a session (prompt_cache_key) to one channel and one key', async () => {
    const where = await landings(() => turns(12, () => post({ prompt_cache_key: 'session-1' })));
    expect(where).toHaveLength(12);
    expect(new Set(where).size).toBe(1);
  });

  it('holds each of several sessions apart, and spreads calls that name no session', async () => {
    for (const s of ['s-2', 's-3', 's-4', 's-5']) expect(new Set(await landings(() => turns(5, () => post({ user: s })))).size).toBe(1);
    const loose = await landings(() => turns(30, () => post({})));
    expect(new Set(loose).size).toBeGreaterThan(1);
  });

  it('reads Claude Code’s session from metadata.user_id', async () => {
    const userId = JSON.stringify({ device_id: 'd', account_uuid: '', session_id: 'cc-session-1' });
    const where = await landings(() => turns(8, () => claude(userId)));
    expect(new Set(where).size).toBe(1);
  });

  it('moves a session whose channel fails, and keeps it where it was answered', async () => {
    await f.setOption('RetryTimes', '2');
    try {
      const first = await landings(() => turns(1, () => post({ prompt_cache_key: 'session-move' })));
      const failing = first[0].startsWith('a:') ? a : b;
      failing.next.push({ status: 500, json: { error: { message: 'down', type: 'server_error' } } });
      const moved = await landings(() => turns(1, () => post({ prompt_cache_key: 'session-move' })));
      // The failed attempt, then the answer elsewhere.
      expect(moved).toHaveLength(2);
      const answeredAt = moved.find((w) => w !== first[0])!;
      const after = await landings(() => turns(6, () => post({ prompt_cache_key: 'session-move' })));
      expect(new Set(after)).toEqual(new Set([answeredAt]));
    } finally {
      await f.setOption('RetryTimes', '0');
    }
  });

  it('is off where SessionAffinityTTL or the group’s own TTL is 0', async () => {
    await f.setOption('SessionAffinityGroupTTL', JSON.stringify({ default: 0 }));
    try {
      const where = await landings(() => turns(30, () => post({ prompt_cache_key: 'session-off' })));
      expect(new Set(where).size).toBeGreaterThan(1);
    } finally {
      await f.setOption('SessionAffinityGroupTTL', '{}');
    }
    expect(channelB).toBeGreaterThan(0);
  });
});
