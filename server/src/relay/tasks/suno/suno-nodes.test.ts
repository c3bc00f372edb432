import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import { NO_ADDRESS_LIMITS } from '../../../test/app.js';
import { testDatabases } from '../../../test/databases.js';
import { needs, skippedWithoutServices } from '../../../test/services.js';
import { openAccount } from '../../../test/ledger.js';
import { startSunoStandIn, type SunoStandIn } from '../../../test/suno-stand-in.js';
import { expectBooks, submitMusic, suno, sunoChannel } from '../../../test/suno-fixture.js';
import { sharedRedisUrl } from '../../../test/shared-redis.js';

/*
 * Two nodes of one deployment (PostgreSQL or MySQL, and Redis): both run the Suno poller job, but only the node
 * holding its lease polls; a task submitted on one is answered on both, ended once, charged once.
 */

const JOB = 'task-poller:suno';
const redis = sharedRedisUrl();
const serverDatabases = needs(['redis'], 'the Suno poller on two nodes with Redis') ? testDatabases(['postgres', 'mysql']) : [];

if (serverDatabases.length === 0) skippedWithoutServices('the Suno poller on two nodes on a server database with Redis');

describe.each(serverDatabases)('the Suno poller on two nodes on $name with Redis', (database) => {
  let up: SunoStandIn;
  let drop: () => Promise<void>;
  const nodes: FastifyInstance[] = [];

  const node = (type: 'master' | 'slave', dsn: string) =>
    buildApp(
      loadConfig({ SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', NODE_TYPE: type, SQL_DSN: dsn, REDIS_CONN_STRING: redis!, TASK_POLL_INTERVAL: '3600', ...NO_ADDRESS_LIMITS }),
      { logger: false },
    ).then((app) => (nodes.push(app), app));

  beforeAll(async () => {
    up = await startSunoStandIn();
    const opened = await database.open();
    drop = opened.drop;
    await opened.db.close();
    await node('master', opened.url!);
    // Both master nodes: the pollers run only on master nodes (NODE_TYPE=slave nodes run no deployment-wide job).
    await node('master', opened.url!);
  }, 60_000);
  afterAll(async () => {
    for (const app of nodes) await app.close();
    await up.close();
    await drop();
  });

  it('polls from one node only, whichever holds the lease, and ends the task once', async () => {
    const [a, b] = nodes;
    const channelId = await sunoChannel(a, { base_url: up.url, key: up.key });
    await b.ctx.routing.load();
    const account = await openAccount(a.ctx.db.kysely, { quota: 1_000_000, tokenQuota: 200_000 });
    const taskId = await submitMusic(b, account.key);

    for (let round = 1; round <= 3; round++) {
      await Promise.all([a.ctx.jobs.runNow(JOB), b.ctx.jobs.runNow(JOB)]);
      expect(up.polls, `round ${round}`).toBe(round);
    }
    for (const app of nodes) {
      expect((await suno(app, account.key, 'GET', `/suno/fetch/${taskId}`)).body.data).toMatchObject({ task_id: taskId, status: 'SUCCESS', progress: '100%' });
    }
    expect(await expectBooks(a, account, [channelId])).toMatchObject({ consumed: 50_000, refunded: 0 });

    // A node stops (giving its lease up, if it held it): the other polls on its own, at once.
    const second = await submitMusic(b, account.key);
    await a.close();
    nodes.splice(nodes.indexOf(a), 1);
    const polls = up.polls;
    await b.ctx.jobs.runNow(JOB);
    expect(up.polls).toBe(polls + 1);
    expect((await suno(b, account.key, 'GET', `/suno/fetch/${second}`)).body.data).toMatchObject({ status: 'QUEUED' });
  });
});
