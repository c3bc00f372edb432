import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from '../../../test/mocks/claude.js';
import { GEMINI_MOCK_KEY, startGeminiMock, type GeminiMock } from '../../../test/mocks/gemini.js';
import { startPrivateRedis, type PrivateRedis } from '../../../test/private-redis.js';
import { needs } from '../../../test/services.js';
import { DEFAULT_LIMITS, fresh, startServerProcess, until, workerPids, type ServerProcess } from '../../../test/server-process.js';

/*
 * Responses the gateway keeps for converting channels (Claude, Gemini), on a node with two workers as it runs by
 * default, every rate limit at its default. Each call goes on a connection of its own, so the primary hands the
 * next turn to the other worker: the turn is found there only if it was written before the answer ended.
 */

const CLAUDE_MODEL = 'claude-3-5-sonnet-20241022';
const GEMINI_MODEL = 'gemini-1.5-pro';
const TURNS = 20;
const GETS = 6;

interface Node {
  server: ServerProcess;
  key: string;
}

async function startNode(env: Record<string, string>, claude: ClaudeMock, gemini: GeminiMock): Promise<Node> {
  const server = await startServerProcess({
    WORKERS: '2',
    ...DEFAULT_LIMITS,
    ...env,
  });
  await until(() => workerPids(server.child.pid!), (p) => p.length === 2, 60_000);
  // One sign-in (the critical limit counts them) for every console call.
  const headers = await server.rootHeaders();
  const consoleApi = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, headers, body: JSON.stringify(body) });
    const json = (await res.json()) as { success: boolean; message: string; data: Record<string, unknown> };
    if (!json.success) throw new Error(json.message);
    return json.data;
  };
  await consoleApi('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [CLAUDE_MODEL]: 1.5, [GEMINI_MODEL]: 1.25 }) });
  await consoleApi('POST', '/api/channel/', { type: 14, name: 'claude', group: 'default', base_url: claude.url, key: CLAUDE_MOCK_KEY, models: CLAUDE_MODEL });
  await consoleApi('POST', '/api/channel/', { type: 24, name: 'gemini', group: 'default', base_url: gemini.url, key: GEMINI_MOCK_KEY, models: GEMINI_MODEL });
  const token = await consoleApi('POST', '/api/token/', { name: 'turns', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  return { server, key: `sk-${String(token.key)}` };
}

async function stopNode(node: Node | undefined): Promise<void> {
  if (!node) return;
  const { server } = node;
  const pids = workerPids(server.child.pid!);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await server.exited;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  server.cleanup();
}

/** A Responses call on a fresh connection; the status and the body (a stream read to its end). */
async function respond(node: Node, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await fresh(`${node.server.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${node.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** The response id of an answer: the JSON body's, or the one in a stream's response.completed event. */
function idOf(text: string, stream: boolean): string {
  if (!stream) return (JSON.parse(text) as { id: string }).id;
  const completed = text.split('\n').find((l) => l.startsWith('data: ') && l.includes('"response.completed"'));
  if (!completed) throw new Error(`no response.completed in ${text}`);
  return (JSON.parse(completed.slice(6)) as { response: { id: string } }).response.id;
}

/** Turns whose second part (sent the moment the first ended) did not find the first; empty when all did. */
async function lostSecondTurns(node: Node, model: string): Promise<string[]> {
  const lost: string[] = [];
  for (let i = 0; i < TURNS; i++) {
    const stream = i % 2 === 1;
    const first = await respond(node, { model, input: `turn ${i}`, stream });
    expect(first.status, first.text).toBe(200);
    const id = idOf(first.text, stream);
    const second = await respond(node, { model, input: 'and then?', previous_response_id: id });
    if (second.status !== 200 || (JSON.parse(second.text) as { previous_response_id: unknown }).previous_response_id !== id) {
      lost.push(`${stream ? 'stream' : 'json'} ${i}: ${second.status} ${second.text.slice(0, 200)}`);
    }
  }
  return lost;
}

/** GET /v1/responses/{id} the moment the response was made: the statuses that were not 200. */
async function missedReads(node: Node, model: string): Promise<number[]> {
  const missed: number[] = [];
  for (let i = 0; i < GETS; i++) {
    const made = await respond(node, { model, input: `read me ${i}` });
    const id = idOf(made.text, false);
    const res = await fresh(`${node.server.url}/v1/responses/${id}`, { headers: { authorization: `Bearer ${node.key}` } });
    if (res.status !== 200 || ((await res.json()) as { id: string }).id !== id) missed.push(res.status);
  }
  return missed;
}

const stores: Array<{ name: string; redis: boolean }> = [
  { name: 'the database', redis: false },
  ...(needs(['redis-server'], 'Responses kept in Redis on a node with two workers') ? [{ name: 'Redis', redis: true }] : []),
];

describe.each(stores)('Responses kept in $name on a node with two workers', { timeout: 180_000 }, ({ redis: useRedis }) => {
  let claude: ClaudeMock;
  let gemini: GeminiMock;
  let redis: PrivateRedis | undefined;
  let node: Node | undefined;

  beforeAll(async () => {
    [claude, gemini] = await Promise.all([startClaudeMock(), startGeminiMock()]);
    // A Redis of its own: the keys of a test never meet another's.
    redis = useRedis ? await startPrivateRedis() : undefined;
    node = await startNode(redis ? { REDIS_CONN_STRING: redis.url, RESPONSES_STORE: 'redis' } : { RESPONSES_STORE: 'database' }, claude, gemini);
  }, 120_000);

  afterAll(async () => {
    await stopNode(node);
    await redis?.close();
    await Promise.all([claude?.close(), gemini?.close()]);
  });

  it('finds every previous_response_id sent the moment the first turn ended, on a Claude channel', async () => {
    expect(await lostSecondTurns(node!, CLAUDE_MODEL)).toEqual([]);
  });

  it('finds every previous_response_id sent the moment the first turn ended, on a Gemini channel', async () => {
    expect(await lostSecondTurns(node!, GEMINI_MODEL)).toEqual([]);
  });

  it('answers GET /v1/responses/{id} right after the response was made, on either worker', async () => {
    expect([...(await missedReads(node!, CLAUDE_MODEL)), ...(await missedReads(node!, GEMINI_MODEL))]).toEqual([]);
  });
});
