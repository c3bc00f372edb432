// Micro-benchmarks of the relay's per-call work, on the built server (server/dist), in one process, to put a price
// in µs of CPU on each piece the profile points at. Run from the repository root after `npm run build`:
//   node bench/micro-relay.mjs [--server server/dist] [--rounds 7]
// Each figure is the best of several rounds (interference from other processes only ever adds time). SQLite is a
// file in a temp dir with the server's own pragmas (WAL, synchronous=NORMAL), schema from its migrations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asyncCpuBench, builtServer } from './lib/micro.mjs';

const { dist, ROUNDS, imp } = builtServer();
const { connect } = await imp('db/connect.js');
const { migrateToLatest } = await imp('db/migrate.js');
const { reserveQuota, applySettlements } = await imp('store/quota.js');
const { OpenAIStreamMeter } = await imp('relay/formats/openai/stream.js');
const { parseJsonCall, estimatePromptTokens } = await imp('relay/calls.js');
const { readUsage } = await imp('relay/formats/openai/usage.js');
const { countTextTokens } = await imp('relay/tokenizer.js');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-micro-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
const db = await connect('', path.join(tmp, 'micro.db'));
await migrateToLatest(db);
const k = db.kysely;
const { insertUser } = await imp('store/users.js');
const { insertToken } = await imp('store/tokens.js');
const user = { id: await insertUser(k, { username: 'u', password: 'x', aff_code: 'abcd', quota: 1e12 }) };
const token = await insertToken(k, { user_id: user.id, status: 1, name: 't', unlimited_quota: true, remain_quota: 0, expired_time: -1, model_limits_enabled: false, model_limits: '', allow_ips: '', group: '' });

/** CPU µs per op: best of ROUNDS rounds of n ops (fn may be async). */
const bench = asyncCpuBench(ROUNDS);

console.log(`server build: ${path.relative(process.cwd(), dist) || dist}; node ${process.version}; best of ${ROUNDS} rounds, CPU µs per op\n`);

// --- quota reservation: what every call does before going upstream
const reservation = { userId: user.id, tokenId: token.id, tokenUnlimited: true, amount: 600 };
await bench('reserveQuota (on SQLite: one synchronous transaction of prepared statements) — per call', 2000, () => reserveQuota(k, reservation));
const { sql } = await import('kysely');
await bench('  kysely: UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ? (no transaction)', 2000, () =>
  k.updateTable('users').set({ quota: sql`quota - ${600}` }).where('id', '=', user.id).where('quota', '>=', 600).executeTakeFirst(),
);
await bench('  kysely: compile only (no execution)', 5000, () => {
  k.updateTable('users').set({ quota: sql`quota - ${600}` }).where('id', '=', user.id).where('quota', '>=', 600).compile();
});
// better-sqlite3 directly, the way the server opens it
const Sqlite = (await import('better-sqlite3')).default;
const raw = new Sqlite(path.join(tmp, 'micro.db'));
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = NORMAL');
const SQL = 'UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?';
await bench('  better-sqlite3: prepare + run each time (what kysely does)', 5000, () => {
  raw.prepare(SQL).run(600, user.id, 600);
});
const stmt = raw.prepare(SQL);
await bench('  better-sqlite3: cached prepared statement, run (autocommit = its own transaction)', 5000, () => {
  stmt.run(600, user.id, 600);
});
const begin = raw.prepare('BEGIN');
const commit = raw.prepare('COMMIT');
await bench('  better-sqlite3: cached BEGIN; UPDATE; COMMIT', 5000, () => {
  begin.run();
  stmt.run(600, user.id, 600);
  commit.run();
});

// --- settlement: batched, per call
function settlement(i) {
  return {
    reservation,
    cost: 7,
    channelId: 1,
    countsAsRequest: true,
    log: {
      user_id: user.id,
      created_at: Math.floor(Date.now() / 1000),
      type: 2,
      content: '模型倍率 0.075，补全倍率 4，分组倍率 1',
      username: 'u',
      token_name: 't',
      model_name: 'gpt-4o-mini',
      quota: 7,
      prompt_tokens: 9,
      completion_tokens: 20,
      use_time: 0,
      is_stream: i & 1,
      channel_id: 1,
      token_id: token.id,
      group: 'default',
      ip: '127.0.0.1',
      other: JSON.stringify({ model_ratio: 0.075, group_ratio: 1, completion_ratio: 4, frt: 1, admin_info: { use_channel: [1] } }),
    },
  };
}
for (const size of [20, 200]) {
  const batch = Array.from({ length: size }, (_, i) => settlement(i));
  await bench(`applySettlements, batch of ${size} (with consume logs) — per call`, 20, () => applySettlements(k, batch), size);
}

// --- request parsing and pricing inputs
const body = Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello in one short sentence.' }], max_tokens: 64, stream: true, stream_options: { include_usage: true } }));
await bench('parseJsonCall + estimatePromptTokens (small chat body)', 20000, () => {
  estimatePromptTokens(parseJsonCall('chat', body));
});

// --- stream metering: the mock's 20 chunks + usage + [DONE], as one buffer and event by event
const events = [];
for (let i = 0; i < 20; i++) {
  const delta = i === 0 ? { role: 'assistant', content: 'Hello' } : { content: ' word' };
  events.push(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: i === 19 ? 'stop' : null }] })}\n\n`);
}
events.push(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 9, completion_tokens: 20, total_tokens: 29 } })}\n\n`);
events.push('data: [DONE]\n\n');
const perEvent = events.map((e) => Buffer.from(e));
const whole = Buffer.from(events.join(''));
await bench('OpenAIStreamMeter: 22 events pushed one by one — per stream', 5000, () => {
  const m = new OpenAIStreamMeter('gpt-4o-mini', false);
  for (const b of perEvent) m.push(b);
  m.finish();
});
await bench('OpenAIStreamMeter: 22 events in one buffer — per stream', 5000, () => {
  const m = new OpenAIStreamMeter('gpt-4o-mini', false);
  m.push(whole);
  m.finish();
});
await bench('  of which JSON.parse of the 21 data payloads', 5000, () => {
  for (const e of events) if (e !== 'data: [DONE]\n\n') JSON.parse(e.slice(6, -2));
});
await bench('  a cheaper scan: indexOf("\\n\\n") framing + parse only events containing "usage"', 5000, () => {
  const text = whole.toString('utf8');
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n\n', start);
    if (end < 0) break;
    const ev = text.slice(start, end);
    if (ev.includes('"usage"')) readUsage(JSON.parse(ev.slice(6)).usage);
    start = end + 2;
  }
});

// --- a long answer: the meter's token counter runs even when the upstream reports usage
const longText = 'The quick brown fox jumps over the lazy dog. '.repeat(180); // ~8 kB, ~1800 tokens
await bench(`countTextTokens on an 8 kB answer (o200k; what IncrementalCounter spends per long stream)`, 200, () => countTextTokens(longText, 'gpt-4o-mini'));

await db.close();
raw.close();
