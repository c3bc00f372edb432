import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { testDatabases } from '../test/databases.js';
import { needs } from '../test/services.js';
import { codeIn, startSmtpStandIn, type SmtpStandIn } from '../test/smtp-stand-in.js';
import { NO_ADDRESS_LIMITS } from '../test/app.js';
import { sharedRedisUrl } from '../test/shared-redis.js';

/*
 * A code mailed by one node is good on another, and after a restart: codes live in the database (SQLite file,
 * PostgreSQL, MySQL) or in Redis, not in a process.
 */

interface Setup {
  name: string;
  /** The environment of every node, and what to clean up after. */
  open(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

const sqliteFile: Setup = {
  name: 'a SQLite file, across a restart',
  async open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-codes-'));
    return { env: { SQLITE_PATH: path.join(dir, 'db.sqlite') }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  },
};

const serverSetups: Setup[] = testDatabases(['postgres', 'mysql'])
  .flatMap((database) => {
    const open = (redis: boolean) => async () => {
      const { db, drop, url } = await database.open();
      await db.close();
      return { env: { SQL_DSN: url!, ...(redis ? { REDIS_CONN_STRING: sharedRedisUrl()! } : {}) }, drop };
    };
    const setups = [{ name: `two nodes on ${database.name}`, open: open(false) }];
    if (needs(['redis'], `two nodes on ${database.name} with codes in Redis`)) setups.push({ name: `two nodes on ${database.name} with codes in Redis`, open: open(true) });
    return setups;
  });

describe.each([sqliteFile, ...serverSetups])('mailed codes on $name', (setup) => {
  let smtp: SmtpStandIn;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  const nodes: FastifyInstance[] = [];

  const node = async (type: 'master' | 'slave') => {
    const config = loadConfig({ SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', NODE_TYPE: type, ...NO_ADDRESS_LIMITS, ...env });
    const app = await buildApp(config, { logger: false });
    nodes.push(app);
    return app;
  };

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    ({ env, drop } = await setup.open());
  });
  afterAll(async () => {
    for (const app of nodes) await app.close();
    await smtp.close();
    await drop();
  });

  it('registers on one node with the code another node mailed', async () => {
    const a = await node('master');
    for (const [key, value] of Object.entries({ ...smtp.settings(), EmailVerificationEnabled: 'true' })) {
      expect(await a.ctx.options.set(key as never, value)).toBeNull();
    }
    const email = 'nodes@example.com';
    expect((await a.inject({ method: 'GET', url: `/api/verification?email=${email}` })).json()).toEqual({ success: true, message: '' });
    const code = codeIn(await smtp.next(email));
    if (setup === sqliteFile) await a.close();

    const b = await node(setup === sqliteFile ? 'master' : 'slave');
    const payload = { username: 'nodes', password: 'password123', password2: 'password123', email, verification_code: code };
    expect((await b.inject({ method: 'POST', url: '/api/user/register', payload })).json()).toEqual({ success: true, message: '' });
    // Used up for every node.
    const again = { ...payload, username: 'nodes2' };
    const other = setup === sqliteFile ? b : a;
    expect((await other.inject({ method: 'POST', url: '/api/user/register', payload: again })).json()).toEqual({
      success: false,
      message: '验证码错误或已过期',
    });
  });
});
