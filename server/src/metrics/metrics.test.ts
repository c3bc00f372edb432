import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { LOG_RETENTION_JOB } from '../jobs/log-retention.js';

/*
 * GET /metrics: served only with METRICS_TOKEN set and only to its bearer; the relay's figures (answers, latency and
 * first byte per model and channel, upstream errors, retries, quota) and the state read at scrape time.
 */

const MODEL = 'gpt-4o';
const TOKEN = 'scrape-secret-0123456789';
const sqlite = testDatabases(['sqlite'])[0];

/** The value of one sample line of the exposition text (the labels as written, in order). */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{${labels}} ` : `${name} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics', () => {
  let upstream: MockOpenAI;
  let f: RelayFixture;

  beforeAll(async () => {
    upstream = await startMockOpenAI('sk-up');
    f = await startRelay(sqlite, { METRICS_TOKEN: TOKEN });
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1.25 }));
    await f.setOption('RetryTimes', '1');
  }, 60_000);
  afterAll(async () => {
    await f.close();
    await upstream.close();
  });

  const scrape = (token = TOKEN) => fetch(`${f.baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('answers only its bearer', async () => {
    expect((await scrape('')).status).toBe(401);
    expect((await scrape('wrong-secret-0123456789')).status).toBe(401);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    // Node's process figures come with the relay's.
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('counts answers, latency, first byte, quota, upstream errors and retries per model and channel', async () => {
    const failing = await f.channel({ base_url: upstream.url, key: 'sk-wrong', models: MODEL, priority: 10 });
    const good = await f.channel({ base_url: upstream.url, key: upstream.key, models: MODEL, priority: 0 });
    const token = await f.token();
    const client = f.client(token.key);
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of stream) void chunk;
    await f.flush();

    const text = await (await scrape()).text();
    const labels = `model="${MODEL}",channel="${good}"`;
    expect(sample(text, 'switchyard_relay_requests_total', `${labels},status="200"`)).toBe(2);
    expect(sample(text, 'switchyard_relay_duration_seconds_count', labels)).toBe(2);
    expect(sample(text, 'switchyard_relay_first_byte_seconds_count', labels)).toBe(2);
    // Each call tried the higher-priority channel first: refused (401), then retried on the good one.
    expect(sample(text, 'switchyard_upstream_errors_total', `channel="${failing}",status="401"`)).toBe(2);
    expect(sample(text, 'switchyard_relay_retries_total', `channel="${failing}"`)).toBe(2);
    const charged = sample(text, 'switchyard_quota_charged_total', labels)!;
    const logged = await f.t.app.ctx.db.kysely.selectFrom('logs').select((eb) => eb.fn.sum<number>('quota').as('q')).where('type', '=', 2).where('channel_id', '=', good).executeTakeFirstOrThrow();
    expect(charged).toBe(Number(logged.q));
    expect(sample(text, 'switchyard_settlement_batch_size_count')).toBeGreaterThanOrEqual(1);
  });

  it('reads channel states, calls in flight and the job leader at scrape time', async () => {
    await f.t.app.ctx.jobs.runNow(LOG_RETENTION_JOB);
    const text = await (await scrape()).text();
    expect(sample(text, 'switchyard_channels', 'status="enabled"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'switchyard_calls_in_flight')).toBe(0);
    expect(sample(text, 'switchyard_job_leader', `job="${LOG_RETENTION_JOB}"`)).toBe(1);
  });

  it('is not served at all without METRICS_TOKEN', async () => {
    const plain = await startRelay(sqlite);
    try {
      const res = await fetch(`${plain.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect([res.status, await res.text()]).toEqual([404, 'not found']);
    } finally {
      await plain.close();
    }
  });
});
