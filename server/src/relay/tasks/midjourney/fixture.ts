import { afterAll, beforeAll, expect } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import type { Database } from '../../../db/schema.js';
import type { MidjourneyRow } from '../../../store/async-tasks.js';
import { openAccount, type Account } from '../../../test/ledger.js';
import type { TestDatabase } from '../../../test/databases.js';
import { startMidjourneyProxyStandIn, type MidjourneyProxyStandIn } from '../../../test/midjourney-proxy-stand-in.js';
import { startConnectProxy, type ConnectProxy } from '../../../test/proxy-stand-ins.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';

/*
 * A gateway with Midjourney channels in front of stand-in proxies, accounts to draw with, and the books of an
 * account: what its consume logs charged minus what its refund logs gave back is exactly what left its user and its
 * token.
 */

export const MJ_MODELS = [
  'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_zoom', 'mj_custom_zoom', 'mj_shorten',
  'mj_modal', 'mj_inpaint', 'mj_high_variation', 'mj_low_variation', 'mj_pan', 'mj_upload', 'swap_face',
].join(',');

/** Prices (USD) of the actions the suites use; the others cost the default 0.1. */
export const PRICES = { mj_imagine: 0.1, mj_upscale: 0.05, mj_modal: 0.1, mj_describe: 0.04 };
export const quotaOf = (usd: number) => Math.round(usd * 500_000);

export interface MjFixture {
  f: RelayFixture;
  db: Kysely<Database>;
  stand: MidjourneyProxyStandIn;
  channelId: number;
  /** A second channel with its own stand-in. */
  other: { stand: MidjourneyProxyStandIn; channelId: number };
  account(quota?: number, tokenQuota?: number): Promise<Account>;
  call(key: string, method: 'GET' | 'POST', url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  row(mjId: string): Promise<MidjourneyRow>;
  poll(): Promise<void>;
  /** Runs `test` with the first channel's calls going through a local HTTP proxy (its `setting.proxy`), then directly again. */
  behindProxy(test: (proxy: ConnectProxy) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function startMjFixture(database: TestDatabase, env: Record<string, string> = {}): Promise<MjFixture> {
  // Polls happen when a test asks (runNow), not on a timer.
  const f = await startRelay(database, { TASK_POLL_INTERVAL: '3600', ...env });
  const stand = await startMidjourneyProxyStandIn();
  const otherStand = await startMidjourneyProxyStandIn({ secret: 'other-secret' });
  const channelId = await f.channel({ type: 5, base_url: stand.url, key: stand.secret, models: MJ_MODELS, priority: 10 });
  const otherId = await f.channel({ type: 2, base_url: otherStand.url, key: otherStand.secret, models: MJ_MODELS, priority: 0 });
  await f.setOption('ModelPrice', JSON.stringify(PRICES));
  await f.setOption('LogConsumeEnabled', 'true');
  await f.setOption('RetryTimes', '2');
  const db = f.t.app.ctx.db.kysely;
  return {
    f,
    db,
    stand,
    channelId,
    other: { stand: otherStand, channelId: otherId },
    account: (quota = 1_000_000, tokenQuota = 400_000) => openAccount(db, { quota, tokenQuota }),
    call: (key, method, url, payload, headers = {}) =>
      f.t.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) }),
    row: async (mjId) => db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirstOrThrow(),
    poll: () => f.t.app.ctx.jobs.runNow('task-poller:midjourney'),
    behindProxy: async (test) => {
      const proxy = await startConnectProxy();
      const setting = async (value: string) => {
        await db.updateTable('channels').set({ setting: value }).where('id', '=', channelId).execute();
        await f.t.app.ctx.routing.load();
      };
      try {
        await setting(JSON.stringify({ proxy: proxy.url }));
        await test(proxy);
      } finally {
        await setting('');
        await proxy.close();
      }
    },
    close: async () => {
      await f.close();
      await stand.close();
      await otherStand.close();
    },
  };
}

export interface MjBooks {
  quota: number;
  tokenRemain: number;
  usedQuota: number;
  tokenUsed: number;
  charged: number;
  refunded: number;
  refunds: { content: string; quota: number }[];
}

export async function mjBooks(db: Kysely<Database>, a: Account): Promise<MjBooks> {
  const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', a.userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', a.tokenId).executeTakeFirstOrThrow();
  const sum = async (type: number) =>
    Number(
      (await db.selectFrom('logs').select(sql<number>`coalesce(sum(quota), 0)`.as('s')).where('user_id', '=', a.userId).where('type', '=', type).executeTakeFirstOrThrow()).s,
    );
  const refunds = await db.selectFrom('logs').select(['content', 'quota']).where('user_id', '=', a.userId).where('type', '=', 4).orderBy('id').execute();
  return {
    quota: Number(user.quota),
    tokenRemain: Number(token.remain_quota),
    usedQuota: Number(user.used_quota),
    tokenUsed: Number(token.used_quota),
    charged: await sum(2),
    refunded: await sum(4),
    refunds: refunds.map((r) => ({ content: r.content, quota: Number(r.quota) })),
  };
}

/** The account's books balance: charges minus refunds left the user and the token, and count as used, exactly. */
export async function expectBooks(m: Pick<MjFixture, 'db' | 'f'>, a: Account, net: number): Promise<MjBooks> {
  // Reservations given back are written by the settler.
  await m.f.flush();
  const b = await mjBooks(m.db, a);
  const summary = JSON.stringify(b);
  expect(b.charged - b.refunded, summary).toBe(net);
  expect(a.initialQuota - b.quota, summary).toBe(net);
  expect(a.initialTokenQuota - b.tokenRemain, summary).toBe(net);
  expect(b.usedQuota, summary).toBe(net);
  expect(b.tokenUsed, summary).toBe(net);
  return b;
}

/** The fixture of a suite: started before its tests, closed after them. */
export function useMjFixture(database: TestDatabase): () => MjFixture {
  let m: MjFixture | undefined;
  beforeAll(async () => {
    m = await startMjFixture(database);
  }, 60_000);
  afterAll(() => m?.close());
  return () => {
    if (!m) throw new Error('the fixture starts before the suite runs');
    return m;
  };
}
