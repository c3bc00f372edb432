// What keeping Responses costs a converted Responses call, on the built server (server/dist), in one process:
// the turn every storing call gets before it goes upstream, handing the response to the keeper, the write the
// answer's last bytes wait for, the batched write (SQLite, the server's pragmas), and resolving a
// previous_response_id (a read).
//   node bench/micro-responses-keep.mjs [--server server/dist] [--rounds 7]
// Each figure is the best of several rounds of CPU µs per operation (interference only ever adds time).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asyncCpuBench, builtServer } from './lib/micro.mjs';

const { dist, ROUNDS, imp } = builtServer();
const { connect } = await imp('db/connect.js');
const { migrateToLatest } = await imp('db/migrate.js');
const { ResponsesKeeper, keeperLimits } = await imp('relay/formats/responses/store.js');
const { SqlResponsesStore } = await imp('relay/formats/responses/store-sql.js');
const { beginTurn } = await imp('relay/formats/responses/turn.js');
const { parseResponsesCall } = await imp('relay/formats/responses/call.js');
const { chatToResponses } = await imp('relay/formats/responses/from-chat.js');
const { newIdBase } = await imp('relay/formats/responses/ids.js');
const { DEFAULT_OPTIONS } = await imp('options/index.js');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-micro-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
const db = await connect('', path.join(tmp, 'micro.db'));
await migrateToLatest(db);
const keeper = new ResponsesKeeper(new SqlResponsesStore(db.kysely, db.dialect), () => keeperLimits(DEFAULT_OPTIONS), { intervalMs: 3_600_000, maxBatch: 1e9 });

/** CPU µs per op: best of ROUNDS rounds of n ops (fn may be async). */
const bench = asyncCpuBench(ROUNDS);

console.log(`server build: ${path.relative(process.cwd(), dist) || dist}; node ${process.version}; best of ${ROUNDS} rounds, CPU µs per op\n`);

const body = Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5', input: 'Say hello in one short sentence.', instructions: 'Be brief.', max_output_tokens: 256 }));
const completion = {
  id: 'msg_bench',
  object: 'chat.completion',
  created: 1,
  model: 'claude-haiku-4-5',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 },
};

/** One storing call from its body to the response queued for the keeper's next batch. */
async function storedCall() {
  const call = parseResponsesCall(body);
  await beginTurn(keeper, 1, call);
  const response = chatToResponses(completion, { ...call.json, store: true }, call.turn.base);
  call.turn.produced = response;
  keeper.keep({ id: response.id, base: call.turn.base, userId: 1, createdAt: response.created_at, response, input: call.turn.input });
  return call;
}

const unstored = Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5', input: 'Say hello in one short sentence.', instructions: 'Be brief.', max_output_tokens: 256, store: false }));
await bench('parse + beginTurn + convert with store: false (nothing kept: what a converted call paid before)', 20000, async () => {
  const call = parseResponsesCall(unstored);
  await beginTurn(keeper, 1, call);
  chatToResponses(completion, { ...call.json, store: false }, newIdBase());
});
{
  // Timed in runs of 500 calls, each followed by an untimed flush, so the queue never grows past one batch.
  let best = Infinity;
  for (let r = 0; r < ROUNDS + 1; r++) {
    let cpu = 0;
    for (let run = 0; run < 40; run++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < 500; i++) await storedCall();
      const c = process.cpuUsage(c0);
      cpu += c.user + c.system;
      await keeper.flush();
    }
    if (r > 0) best = Math.min(best, cpu / 20000);
  }
  console.log(`${best.toFixed(1).padStart(8)} µs  parse + beginTurn + convert + queue with store: true (the request path of a kept call)`);
}
{
  // What the last bytes of an answer wait for since a turn is written before they go out (turn.keep()): wall time
  // of one write alone, and per call when 20 answers end together (they share writes).
  const wall = async (n, parallel) => {
    let best = Infinity;
    for (let r = 0; r < ROUNDS; r++) {
      const calls = [];
      for (let i = 0; i < n; i++) {
        const call = parseResponsesCall(body);
        await beginTurn(keeper, 1, call);
        call.turn.produced = chatToResponses(completion, { ...call.json, store: true }, call.turn.base);
        calls.push(call);
      }
      const t0 = process.hrtime.bigint();
      if (parallel) await Promise.all(calls.map((c) => c.turn.keep()));
      else for (const c of calls) await c.turn.keep();
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1000 / n);
    }
    return best;
  };
  console.log(`${(await wall(200, false)).toFixed(1).padStart(8)} µs  wall time of turn.keep() (written before the answer ends), one at a time`);
  console.log(`${(await wall(200, true)).toFixed(1).padStart(8)} µs  wall time per call of turn.keep(), 200 answers ending together (shared writes)`);
}

/** The batched write alone: calls are made (untimed), then the flush is timed. */
async function flushCost(size) {
  let best = Infinity;
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (let i = 0; i < size; i++) await storedCall();
    const c0 = process.cpuUsage();
    await keeper.flush();
    const c = process.cpuUsage(c0);
    if (r > 0) best = Math.min(best, (c.user + c.system) / size);
  }
  console.log(`${best.toFixed(1).padStart(8)} µs  keeper flush of ${size} small responses to SQLite (serialise + insert) — per response, off the request path`);
}
await flushCost(50);
await flushCost(200);

// A continued call: previous_response_id read from SQLite (written before), input resolved, body re-serialised.
const first = await storedCall();
await keeper.flush();
const continued = Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5', input: 'And again?', previous_response_id: first.turn.produced.id }));
await bench('beginTurn resolving previous_response_id (one SQLite read, a short conversation)', 5000, () => beginTurn(keeper, 1, parseResponsesCall(continued)));

await db.close();
