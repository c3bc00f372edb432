import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.js';
import { testDatabases } from '../../test/databases.js';
import { needs } from '../../test/services.js';
import { CODE_TTL_SECONDS, EmailCodes, MAX_ATTEMPTS, RESEND_GAP_SECONDS, SEND_WINDOW_SECONDS, SENDS_PER_WINDOW, type CodeBackend } from './index.js';
import { RedisCodeBackend } from './redis.js';
import { SqlCodeBackend } from './sql.js';
import { sharedRedisUrl } from '../../test/shared-redis.js';

/*
 * Every place codes can be kept — the SQL database (SQLite, and PostgreSQL / MySQL when SWITCHYARD_TEST_PG /
 * SWITCHYARD_TEST_MYSQL are set) and Redis (SWITCHYARD_TEST_REDIS) — held to the same contract, on a clock the test
 * moves. Two EmailCodes over one backend stand for two nodes.
 */

interface Backend {
  name: string;
  open(): Promise<{ backend: () => CodeBackend; close(): Promise<void> }>;
}

const sqlBackends: Backend[] = testDatabases().map((database) => ({
  name: database.name,
  async open() {
    const { db, drop } = await database.open();
    await migrateToLatest(db);
    return { backend: () => new SqlCodeBackend(db.kysely), close: drop };
  },
}));

const redisBackends: Backend[] = needs(['redis'], 'mailed codes kept in Redis')
  ? [
      {
        name: 'redis',
        async open() {
          const prefix = `switchyard-test-${randomBytes(4).toString('hex')}:codes:`;
          const clients: Redis[] = [];
          return {
            backend: () => {
              const client = new Redis(sharedRedisUrl()!);
              clients.push(client);
              return new RedisCodeBackend(client, prefix);
            },
            async close() {
              const admin = new Redis(sharedRedisUrl()!);
              const keys = await admin.keys(`${prefix}*`);
              if (keys.length > 0) await admin.del(...keys);
              admin.disconnect();
              for (const c of clients) c.disconnect();
            },
          };
        },
      },
    ]
  : [];

describe.each([...sqlBackends, ...redisBackends])('mailed codes kept in $name', (store) => {
  let now = 1_800_000_000;
  const clock = () => now;
  let nodeA: EmailCodes;
  let nodeB: EmailCodes;
  let close: () => Promise<void>;
  let n = 0;
  /** A fresh address per test, so tests do not wait on each other's resend gap. */
  const address = () => `user${++n}@example.com`;

  beforeAll(async () => {
    const opened = await store.open();
    nodeA = new EmailCodes(opened.backend(), clock);
    nodeB = new EmailCodes(opened.backend(), clock);
    close = opened.close;
  });
  afterAll(() => close());

  async function issue(codes: EmailCodes, email: string, purpose: 'verify' | 'reset' = 'verify'): Promise<string> {
    const issued = await codes.issue(purpose, email);
    if (!issued.sent) throw new Error(`refused, wait ${issued.waitSeconds}`);
    return issued.code;
  }

  it('issues a 6-digit code that another node accepts for that purpose and address only, once', async () => {
    const email = address();
    const code = await issue(nodeA, email);
    expect(code).toMatch(/^\d{6}$/);
    expect(await nodeB.check('verify', ` ${email.toUpperCase()} `, code)).toBe(true);
    expect(await nodeB.check('reset', email, code)).toBe(false);
    expect(await nodeB.check('verify', 'someone@example.com', code)).toBe(false);
    expect(await nodeB.check('verify', email, '')).toBe(false);
    expect(await nodeB.take('verify', email, code)).toBe(true);
    expect(await nodeA.take('verify', email, code)).toBe(false);
    expect(await nodeA.check('verify', email, code)).toBe(false);
  });

  it('issues 32-hex reset tokens', async () => {
    expect(await issue(nodeA, address(), 'reset')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('lets exactly one of many simultaneous uses of a code through', async () => {
    const email = address();
    const code = await issue(nodeA, email);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? nodeA : nodeB).take('verify', email, code)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('expires a code after 10 minutes', async () => {
    const email = address();
    const code = await issue(nodeA, email);
    now += CODE_TTL_SECONDS - 1;
    expect(await nodeB.check('verify', email, code)).toBe(true);
    now += 1;
    expect(await nodeB.check('verify', email, code)).toBe(false);
    expect(await nodeB.take('verify', email, code)).toBe(false);
  });

  it('refuses a new code to the same address within 30 seconds, then replaces the old one', async () => {
    const email = address();
    const first = await issue(nodeA, email);
    now += 10;
    expect(await nodeB.issue('verify', email)).toEqual({ sent: false, waitSeconds: RESEND_GAP_SECONDS - 10 });
    // Another purpose or address is not held back.
    expect((await nodeB.issue('reset', email)).sent).toBe(true);
    expect((await nodeB.issue('verify', address())).sent).toBe(true);
    now += RESEND_GAP_SECONDS - 10;
    const second = await issue(nodeB, email);
    expect(await nodeA.check('verify', email, first)).toBe(second === first);
    expect(await nodeA.check('verify', email, second)).toBe(true);
  });

  it('lets an address ask again at once when its code was withdrawn (the mail failed)', async () => {
    const email = address();
    const code = await issue(nodeA, email);
    await nodeA.withdraw('verify', email, code);
    expect(await nodeA.check('verify', email, code)).toBe(false);
    expect((await nodeB.issue('verify', email)).sent).toBe(true);
  });

  it(`voids a code after ${MAX_ATTEMPTS} wrong guesses`, async () => {
    const email = address();
    const code = await issue(nodeA, email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < MAX_ATTEMPTS - 1; i++) expect(await (i % 2 ? nodeA : nodeB).check('verify', email, wrong)).toBe(false);
    expect(await nodeA.check('verify', email, code)).toBe(true);
    expect(await nodeB.check('verify', email, wrong)).toBe(false);
    expect(await nodeA.check('verify', email, code)).toBe(false);
  });

  it('does not count guesses against a reset token (anyone could void a link by guessing)', async () => {
    const email = address();
    const token = await issue(nodeA, email, 'reset');
    for (let i = 0; i < MAX_ATTEMPTS * 2; i++) expect(await nodeB.check('reset', email, 'f'.repeat(32))).toBe(false);
    expect(await nodeA.take('reset', email, token)).toBe(true);
  });

  it('matches the code exactly (case too)', async () => {
    const email = address();
    const token = await issue(nodeA, email, 'reset');
    expect(await nodeB.take('reset', email, token.toUpperCase())).toBe(token === token.toUpperCase());
    expect(await nodeB.take('reset', email, token)).toBe(true);
  });

  it('deletes expired codes when asked', async () => {
    await issue(nodeA, address());
    now += CODE_TTL_SECONDS + 1;
    const live = await issue(nodeA, address());
    const deleted = await nodeA.expire();
    if (store.name === 'redis') expect(deleted).toBe(0);
    else expect(deleted).toBeGreaterThan(0);
    expect(await nodeA.expire()).toBe(0);
    expect(live).toMatch(/^\d{6}$/);
  });

  it(`admits ${SENDS_PER_WINDOW} mails per client address in ${SEND_WINDOW_SECONDS / 60} minutes, counted across nodes`, async () => {
    const client = `203.0.113.${++n}`;
    for (let i = 0; i < SENDS_PER_WINDOW; i++) expect(await (i % 2 ? nodeA : nodeB).admitSender(client), `mail ${i + 1}`).toBe(true);
    expect(await nodeA.admitSender(client)).toBe(false);
    expect(await nodeB.admitSender(`${client}0`)).toBe(true);
    if (store.name === 'redis') return; // Redis windows run on Redis's own clock.
    now += SEND_WINDOW_SECONDS;
    await nodeA.expire();
    expect(await nodeB.admitSender(client)).toBe(true);
  });
});
