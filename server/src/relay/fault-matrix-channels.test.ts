import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_STATUS } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { DEFAULT_USAGE, FaultUpstreams, type Fault, type Wire } from '../test/fault-upstreams.js';
import { callAs, expectErrorBody, expectWholeAnswer } from '../test/client-calls.js';
import { booksOf, channelsUsed, expectBalanced, openAccount, quiesce } from '../test/ledger.js';
import { ALL_PATHS, COMPLETION_RATIO, MAX_TOKENS, RICH, SERVER_PATHS, TIGHT, VARIANTS, caseModel, faultChannel, pathName, priceModels } from '../test/fault-matrix.js';
import { loadEncodings } from './tokenizer.js';

/*
 * The fault matrix, channel part: calls that fail over across channels of every wire until the retries run out, and
 * a channel whose key the upstream refuses being disabled while calls keep coming. Each call is charged once, by the
 * channel that answered, and the books balance to the unit.
 *
 * On PostgreSQL and MySQL: the same, on the two paths the fault matrix uses there.
 */

/** Failing channels from the highest priority down; RetryTimes 3 tries the first four, never the fifth. */
const FAILING: Array<{ wire: Wire; fault: Fault }> = [
  { wire: 'openai', fault: 'refused' },
  { wire: 'openai', fault: 'status-500' },
  { wire: 'claude', fault: 'status-429' },
  { wire: 'gemini', fault: 'status-500' },
  { wire: 'claude', fault: 'status-500' },
];

describe.each(testDatabases())('the fault matrix across channels on $name', (database) => {
  const paths = database.name === 'sqlite' ? ALL_PATHS.filter((p) => p.wire === p.client) : SERVER_PATHS;
  let f: RelayFixture;
  const upstreams = new FaultUpstreams();

  beforeAll(async () => {
    loadEncodings();
    f = await startRelay(database);
    await upstreams.start(['openai', 'claude', 'gemini'], ['none', 'refused', 'status-500', 'status-429']);
    await f.setOption('RetryTimes', '3');
  });
  afterAll(async () => {
    await f?.close();
    await upstreams.close();
  });

  /** A model served by `chain`, highest priority first, and its channels' ids. */
  async function chainFor(chain: Array<{ wire: Wire; fault: Fault }>, fields: Array<Record<string, unknown>> = []) {
    const model = caseModel();
    const ids: number[] = [];
    for (const [i, link] of chain.entries()) ids.push(await faultChannel(f, upstreams, model, link.wire, link.fault, { priority: chain.length - i, ...fields[i] }));
    await priceModels(f, [model]);
    return { model, ids };
  }

  it.each(paths.map((p, i) => ({ p, variant: VARIANTS[i % VARIANTS.length], title: pathName(p) })))(
    '$title: tries four failing channels once each (RetryTimes 3), answers the last error in its format, charges nothing',
    async ({ p, variant }) => {
      const { model, ids } = await chainFor(FAILING);
      const account = await openAccount(f.t.app.ctx.db.kysely, { quota: variant.quota, tokenQuota: variant.tokenQuota });
      const before = FAILING.map((c) => upstreams.requestsTo(c.wire, c.fault));
      const outcome = await callAs(p.client, f.baseUrl, account.key, { model, stream: p.stream, maxTokens: variant.maxTokens });
      await quiesce(f.t.app.ctx);
      const after = FAILING.map((c) => upstreams.requestsTo(c.wire, c.fault));
      // The refused port records nothing; the others are counted by the upstream model each maps to.
      expect(after[1] - before[1]).toBe(1);
      expect(after[2] - before[2]).toBe(1);
      expect(after[3] - before[3]).toBe(1);
      expect(after[4] - before[4], 'the fifth channel is past RetryTimes').toBe(0);
      expect(outcome.status).toBe(500);
      expectErrorBody(p.client, outcome.status, outcome.text);
      const books = await booksOf(f.t.app.ctx.db.kysely, account, ids);
      expectBalanced(account, books);
      expect(books.logCount).toBe(0);
    },
  );

  it.each(paths.map((p, i) => ({ p, variant: VARIANTS[(i + 1) % VARIANTS.length], title: pathName(p) })))(
    '$title: fails over past a refused connection, a 500 and a 429 to a healthy channel and charges that call once',
    async ({ p, variant }) => {
      const { model, ids } = await chainFor([...FAILING.slice(0, 3), { wire: p.wire, fault: 'none' }]);
      const account = await openAccount(f.t.app.ctx.db.kysely, { quota: variant.quota, tokenQuota: variant.tokenQuota });
      const outcome = await callAs(p.client, f.baseUrl, account.key, { model, stream: p.stream, maxTokens: variant.maxTokens });
      await quiesce(f.t.app.ctx);
      expect(outcome.status, outcome.text.slice(0, 300)).toBe(200);
      expectWholeAnswer(p.client, p.stream, outcome.text);
      const books = await booksOf(f.t.app.ctx.db.kysely, account, ids);
      expectBalanced(account, books);
      expect(books.logCount).toBe(1);
      const usage = DEFAULT_USAGE[p.wire];
      expect(books.logSum).toBe(usage.prompt + usage.completion * COMPLETION_RATIO);
      expect(await channelsUsed(f.t.app.ctx.db.kysely, [ids[3]]), 'only the channel that answered is credited').toBe(books.logSum);
      const log = await f.t.app.ctx.db.kysely.selectFrom('logs').select('other').where('user_id', '=', account.userId).executeTakeFirstOrThrow();
      expect((JSON.parse(log.other) as { admin_info: { use_channel: number[] } }).admin_info.use_channel).toEqual(ids);
    },
  );

  it('disables a channel whose key the upstream refuses while calls keep coming, and every call is served and charged once', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', 'true');
    try {
      const model = caseModel();
      const db = f.t.app.ctx.db.kysely;
      // Same priority: one bad key that may be disabled, one that may not (auto_ban 0); below them, a healthy channel.
      const banned = await faultChannel(f, upstreams, model, 'claude', 'none', { priority: 1, key: 'sk-ant-wrong', auto_ban: 1 });
      const spared = await faultChannel(f, upstreams, model, 'openai', 'none', { priority: 1, key: 'sk-wrong', auto_ban: 0 });
      const healthy = await faultChannel(f, upstreams, model, 'gemini', 'none', { priority: 0 });
      await priceModels(f, [model]);
      const accounts = [
        await openAccount(db, { quota: TIGHT * 20, tokenQuota: TIGHT * 20 }),
        await openAccount(db, { quota: RICH }),
        await openAccount(db, { quota: TIGHT * 20 }),
      ];
      const wave = () =>
        Promise.all(
          Array.from({ length: 30 }, (_, i) => {
            const p = paths[i % paths.length];
            return callAs(p.client, f.baseUrl, accounts[i % accounts.length].key, { model, stream: p.stream, maxTokens: i % 2 ? MAX_TOKENS : undefined }).then((o) => ({ p, o }));
          }),
        );
      const claudeWrongKey = () => upstreams.requestsTo('claude', 'none');
      const first = await wave();
      const afterFirst = claudeWrongKey();
      const second = await wave();
      await quiesce(f.t.app.ctx);
      for (const { p, o } of [...first, ...second]) {
        expect(o.status, o.text.slice(0, 300)).toBe(200);
        expectWholeAnswer(p.client, p.stream, o.text);
      }
      const status = async (id: number) => (await db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      expect(await status(banned)).toBe(CHANNEL_STATUS.AUTO_DISABLED);
      expect(await status(spared)).toBe(CHANNEL_STATUS.ENABLED);
      expect(claudeWrongKey(), 'a disabled channel gets no more calls').toBe(afterFirst);
      let total = 0;
      for (const a of accounts) {
        const books = await booksOf(db, a);
        expectBalanced(a, books);
        total += books.logSum;
      }
      expect(await channelsUsed(db, [healthy])).toBe(total);
      expect(await channelsUsed(db, [banned, spared])).toBe(0);
    } finally {
      await f.setOption('AutomaticDisableChannelEnabled', 'false');
    }
  });
});
