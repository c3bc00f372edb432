import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import type { Db } from '../../../db/connect.js';
import { insertChannels } from '../../../store/channels.js';
import { channelInput } from '../../../test/channel-input.js';
import { NO_ADDRESS_LIMITS } from '../../../test/app.js';
import { testDatabases, type TestDatabase } from '../../../test/databases.js';
import { needs } from '../../../test/services.js';
import { openAccount } from '../../../test/ledger.js';
import { startMidjourneyProxyStandIn, type MidjourneyProxyStandIn } from '../../../test/midjourney-proxy-stand-in.js';
import { MJ_MODELS } from './fixture.js';
import { sharedRedisUrl } from '../../../test/shared-redis.js';

/*
 * The poller across processes: a new process on the same database continues a task where the last one left it,
 * and of two nodes sharing a database (and Redis) only the one holding the job's lease asks the proxies.
 */

const JOB = 'task-poller:midjourney';

const mjChannel = (stand: MidjourneyProxyStandIn) => channelInput({ type: 5, key: stand.secret, name: 'mj', base_url: stand.url, models: MJ_MODELS });

const node = (env: Record<string, string>, db?: Db) =>
  buildApp(loadConfig({ SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', TASK_POLL_INTERVAL: '3600', ...NO_ADDRESS_LIMITS, ...env }), {
    logger: false,
    ...(db ? { db } : {}),
  });

interface Setup {
  apps: FastifyInstance[];
  stand: MidjourneyProxyStandIn;
  drop: () => Promise<void>;
}

async function imagine(app: FastifyInstance, key: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/mj/submit/imagine', headers: { authorization: `Bearer ${key}` }, payload: { prompt: 'nodes' } });
  expect(res.json().code).toBe(1);
  return res.json().result as string;
}

const statusOf = async (db: Db, mjId: string) => db.kysely.selectFrom('midjourneys').select(['status', 'progress']).where('mj_id', '=', mjId).executeTakeFirstOrThrow();

let setup: Setup | null = null;
afterEach(async () => {
  if (!setup) return;
  for (const app of setup.apps) await app.close();
  await setup.stand.close();
  await setup.drop();
  setup = null;
});

describe.each(testDatabases())('the Midjourney poller after a restart on $name', (database: TestDatabase) => {
  it('continues an unfinished task from where the stopped process left it', async () => {
    const { db, drop } = await database.open();
    const stand = await startMidjourneyProxyStandIn();
    setup = { apps: [], stand, drop };
    const first = await node({}, db);
    setup.apps.push(first);
    await insertChannels(db.kysely, [mjChannel(stand)]);
    await first.ctx.routing.load();
    const account = await openAccount(db.kysely, { quota: 1_000_000, tokenQuota: 500_000 });
    const id = await imagine(first, account.key);
    await first.ctx.jobs.runNow(JOB);
    expect(await statusOf(db, id)).toEqual({ status: 'IN_PROGRESS', progress: '30%' });
    await first.close();
    setup.apps = [];

    const second = await node({}, db);
    setup.apps.push(second);
    await second.ctx.jobs.runNow(JOB);
    expect(await statusOf(db, id)).toEqual({ status: 'IN_PROGRESS', progress: '60%' });
    await second.ctx.jobs.runNow(JOB);
    expect(await statusOf(db, id)).toEqual({ status: 'SUCCESS', progress: '100%' });
    expect(stand.polls).toBe(3);
  });
});

const redisUrl = sharedRedisUrl();
const sharedRedis = needs(['redis'], 'the Midjourney poller on two nodes sharing a server database and Redis');
describe.each(sharedRedis ? testDatabases(['postgres', 'mysql']) : [])('the Midjourney poller on two nodes sharing $name and Redis', (database) => {
  it('runs on the node holding the lease only', async () => {
    const { db: adminDb, drop, url } = await database.open();
    await adminDb.close();
    const stand = await startMidjourneyProxyStandIn();
    setup = { apps: [], stand, drop };
    const env = { SQL_DSN: url!, REDIS_CONN_STRING: redisUrl! };
    const a = await node(env);
    setup.apps.push(a);
    // Both masters: the job is registered on each, and the lease decides.
    const b = await node(env);
    setup.apps.push(b);
    await insertChannels(a.ctx.db.kysely, [mjChannel(stand)]);
    await a.ctx.routing.load();
    await b.ctx.routing.load();
    const account = await openAccount(a.ctx.db.kysely, { quota: 1_000_000, tokenQuota: 500_000 });
    // Submitted through either node, polled by one.
    const one = await imagine(a, account.key);
    const two = await imagine(b, account.key);
    for (let round = 1; round <= 3; round++) {
      await Promise.all([a.ctx.jobs.runNow(JOB), b.ctx.jobs.runNow(JOB)]);
      expect(stand.polls).toBe(round);
    }
    expect(stand.polledIds.every((ids) => ids.length === 2)).toBe(true);
    expect(await statusOf(a.ctx.db, one)).toEqual({ status: 'SUCCESS', progress: '100%' });
    expect(await statusOf(a.ctx.db, two)).toEqual({ status: 'SUCCESS', progress: '100%' });

    // The holder stops: it gives the lease up, and the other node takes the job over at its next run.
    await a.close();
    setup.apps = [b];
    const three = await imagine(b, account.key);
    await b.ctx.jobs.runNow(JOB);
    expect(stand.polls).toBe(4);
    expect(stand.polledIds.at(-1)).toEqual([three]);
  });
});
