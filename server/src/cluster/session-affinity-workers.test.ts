import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAnswer, startScriptedUpstream, type ScriptedUpstream } from '../test/mocks/scripted.js';
import { fresh, startServerProcess, until, workerPids, type ServerProcess } from '../test/server-process.js';

/*
 * Session affinity on a node with two workers (as `npm start` runs it): each turn comes on a connection of its own,
 * which the primary hands to the workers in turn, and still lands where the session's first turn was answered,
 * because the worker that answered it told the other one (relay/session-affinity.ts).
 */

const MODEL = 'gpt-4o-mini';
const SESSIONS = 6;
const TURNS = 6;

describe('session affinity on a node with two workers', { timeout: 180_000 }, () => {
  let server: ServerProcess;
  let a: ScriptedUpstream;
  let b: ScriptedUpstream;
  let key: string;

  beforeAll(async () => {
    const ok = () => ({ json: chatAnswer({ content: 'ok' }) });
    [a, b] = await Promise.all([startScriptedUpstream(ok), startScriptedUpstream(ok)]);
    server = await startServerProcess({ WORKERS: '2' });
    await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
    await server.consoleApi('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1 }) });
    for (const [name, up] of [['a', a], ['b', b]] as const) {
      await server.consoleApi('POST', '/api/channel/', { type: 1, name, group: 'default', base_url: up.url, key: `sk-${name}`, models: MODEL });
    }
    const token = await server.consoleApi('POST', '/api/token/', { name: 'agent', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    key = `sk-${String(token.key)}`;
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.exited;
    server?.cleanup();
    await Promise.all([a?.close(), b?.close()]);
  });

  const turn = (session: string) =>
    fresh(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], prompt_cache_key: session }),
    });

  it('sends every turn of each session to one channel, whichever worker takes it', async () => {
    const landed: string[][] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const where: string[] = [];
      for (let t = 0; t < TURNS; t++) {
        const before = a.requests.length;
        const res = await turn(`session-${s}`);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        where.push(a.requests.length > before ? 'a' : 'b');
        // Turns of an agent come seconds apart; this leaves the other worker a moment to hear of the session.
        if (t === 0) await new Promise((r) => setTimeout(r, 100));
      }
      landed.push(where);
    }
    // Without affinity, six turns of one session land on one of two channels 1 time in 32.
    for (const where of landed) expect(new Set(where).size).toBe(1);
  });
});
