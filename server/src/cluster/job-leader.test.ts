import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { itWithServices } from '../test/services.js';
import { startPrivateRedis, type PrivateRedis } from '../test/private-redis.js';
import { DEFAULT_LIMITS, fresh, startServerProcess, until, workerPids, type ServerProcess } from '../test/server-process.js';

/*
 * switchyard_job_leader on /metrics, with the jobs' default intervals (most run hourly): 1 for each job on the node
 * that runs it, from its start, and 0 on every other node — with two workers per node, of which one holds each lease.
 */

const METRICS_TOKEN = 'leader-scrape-token';

/** job -> 1 or 0, as a scrape of the node reads it. */
async function leadership(node: ServerProcess): Promise<Record<string, number>> {
  const text = await (await fresh(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const states: Record<string, number> = {};
  for (const m of text.matchAll(/^switchyard_job_leader\{job="([^"]+)"\} (\d+)$/gm)) states[m[1]] = Number(m[2]);
  return states;
}

const postgres = testDatabases(['postgres'])[0];

/** Reads every 2 s (a scrape counts against the web rate limit, 60 in 3 minutes) until `ok`, for at most 40 s. */
async function polled<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (ok(v) || i === 20) return v;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

describe('the job-leader gauge', { timeout: 180_000 }, () => {
  const nodes: ServerProcess[] = [];
  let redis: PrivateRedis | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterEach(async () => {
    for (const node of nodes) {
      const pids = workerPids(node.child.pid!);
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
      await node.exited;
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      node.cleanup();
    }
    nodes.length = 0;
    await drop?.();
    drop = undefined;
    await redis?.close();
    redis = undefined;
  });

  const startNode = async (env: Record<string, string>) => {
    const node = await startServerProcess({ WORKERS: '2', METRICS_TOKEN, ...DEFAULT_LIMITS, ...env });
    nodes.push(node);
    await until(() => workerPids(node.child.pid!), (p) => p.length === 2, 60_000);
    return node;
  };

  it('reads 1 for every leased job on a single node with two workers', async () => {
    const node = await startNode({});
    const states = await polled(() => leadership(node), (s) => Object.keys(s).length > 0 && Object.values(s).every((v) => v === 1));
    expect(Object.values(states).every((v) => v === 1)).toBe(true);
    expect(Object.keys(states)).toEqual(expect.arrayContaining(['log-retention', 'responses-retention']));
  });

  itWithServices(['postgres', 'redis-server'], 'reads 1 on exactly one of two nodes sharing PostgreSQL and Redis, 0 on the other', async () => {
    const opened = await postgres!.open();
    drop = opened.drop;
    redis = await startPrivateRedis();
    const env = { SQL_DSN: opened.url!, REDIS_CONN_STRING: redis.url, SQL_MAX_OPEN_CONNS: '4' };
    const a = await startNode(env);
    const b = await startNode(env);
    const both = async () => ({ a: await leadership(a), b: await leadership(b) });
    const settled = (s: { a: Record<string, number>; b: Record<string, number> }) =>
      Object.keys(s.a).length > 0 && Object.keys(s.a).every((job) => s.a[job] + (s.b[job] ?? 0) === 1);
    const states = await polled(both, settled);
    expect(settled(states)).toBe(true);
    expect(Object.keys(states.b).sort()).toEqual(Object.keys(states.a).sort());
    // A started first and took every lease; B leads nothing.
    expect(Object.values(states.a).every((v) => v === 1)).toBe(true);
    expect(Object.values(states.b).every((v) => v === 0)).toBe(true);
  });
});
