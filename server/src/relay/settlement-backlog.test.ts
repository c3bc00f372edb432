import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/*
 * While the database cannot take settlements, they wait in memory to be written; past SETTLEMENT_MAX_PENDING the
 * relay takes no new call (503 settlement_backlog), so what is owed never piles up without end. Once the backlog is
 * written, calls are taken again, and every answered call is billed once.
 */
const database = testDatabases(['sqlite'])[0];

describe(`SETTLEMENT_MAX_PENDING on ${database.name}`, () => {
  let f: RelayFixture;
  let upstream: MockOpenAI;

  beforeAll(async () => {
    upstream = await startMockOpenAI('sk-up');
    f = await startRelay(database, { SETTLEMENT_MAX_PENDING: '3' });
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 1 }));
    await f.channel({ type: 1, base_url: upstream.url, key: 'sk-up', models: 'gpt-4o-mini' });
  });
  afterAll(async () => {
    await f.close();
    await upstream.close();
  });

  it('refuses new calls while too many settlements wait, and takes them again once they are written', async () => {
    const { key, id } = await f.token();
    const client = f.client(key);
    const ask = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const db = f.t.app.ctx.db.kysely;
    await sql`alter table logs rename to logs_away`.execute(db);
    try {
      for (let i = 0; i < 3; i++) await ask();
      await f.flush().catch(() => {});
      expect(f.t.app.ctx.relay.settler.pending).toBe(3);
      const refused = await fetch(`${f.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('settlement_backlog');
    } finally {
      await sql`alter table logs_away rename to logs`.execute(db);
    }
    for (let i = 0; i < 50 && f.t.app.ctx.relay.settler.pending > 0; i++) {
      await f.flush().catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(f.t.app.ctx.relay.settler.pending).toBe(0);
    await ask();
    await f.flush();
    const logs = await db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 2).where('token_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(logs.n)).toBe(4);
  });
});
