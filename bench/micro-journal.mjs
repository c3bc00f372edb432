// CPU per settlement of the settlement journal (server/src/relay/settlement-journal/journal.ts) on the relay path:
// the line each settled call writes before its answer ends (JSON of the settlement), the one write(2) of the calls
// ending in one turn of the loop, and a batch's two lines (formed, written) spread over its settlements; CPU counts user and system time (write(2) to the page cache
// is system time). Run from the repository root after `npm run build`:
//   [JOURNAL_BENCH_DIR=<a folder on the data disk>] node bench/micro-journal.mjs [--server server/dist] [--rounds 7]
// Each figure is the best of several rounds (interference from other processes only ever adds time).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asyncCpuBench, builtServer, cpuBench } from './lib/micro.mjs';

const { ROUNDS, imp } = builtServer();
const base = process.env.JOURNAL_BENCH_DIR || os.tmpdir();
const { SettlementJournal } = await imp('relay/settlement-journal/journal.js');
const { settlementLine } = await imp('relay/settlement-journal/format.js');
const bench = cpuBench(ROUNDS);
const log = { warn() {}, error() {}, info() {} };

/** A settled chat call as the pipeline hands it to the settler (consume log included). */
const settlement = (i) => ({
  reservation: { userId: 1 + (i % 1000), tokenId: 1 + (i % 5000), tokenUnlimited: false, amount: 0 },
  cost: 1234,
  channelId: 3,
  countsAsRequest: true,
  log: {
    user_id: 1 + (i % 1000), created_at: 1_764_000_000, type: 2, content: '模型倍率 2.50，补全倍率 4.00，分组倍率 1.00',
    username: 'some-user', token_name: 'default', model_name: 'gpt-4o-mini', quota: 1234, prompt_tokens: 412, completion_tokens: 96,
    use_time: 2, is_stream: 1, channel_id: 3, token_id: 1 + (i % 5000), group: 'default', ip: '203.0.113.7',
    other: '{"model_ratio":2.5,"completion_ratio":4,"group_ratio":1,"model_price":-1,"frt":312,"admin_info":{"use_channel":[3]}}',
  },
});
const calls = Array.from({ length: 1000 }, (_, i) => settlement(i));
console.log(`settlement journal in ${base}, line ~${Buffer.byteLength(settlementLine(calls[0]))} bytes, best of ${ROUNDS} rounds:`);

bench('the line alone (JSON of the settlement, no write)', 100_000, (i) => settlementLine(calls[i % 1000]));

const dir = fs.mkdtempSync(path.join(base, 'micro-journal-'));
const journal = new SettlementJournal({ dir, database: 'bench', log });
let batch = 0;
let i = 0;
/** One turn of the loop in which `per` calls end: their lines, then the one write they all wait for. */
const turn = (per) => async () => {
  for (let k = 0; k < per; k++, i++) {
    journal.append(calls[i % 1000]);
    if (i % 200 === 199) journal.formed(`b${batch++}`)?.();
  }
  await new Promise((resolve) => journal.whenWritten(resolve));
};
// Batches of 200 (the settler's largest): each call's line, and every 200th call the batch's two lines. Written
// batches' files are deleted as the journal moves on to new ones, as on a node under load.
const abench = asyncCpuBench(ROUNDS);
for (const per of [1, 5, 20]) {
  await abench(`journaled, per settled call, ${per} call(s) ending per turn of the loop (lines + one write(2) per turn)`, Math.round(20_000 / per), turn(per), per);
}
journal.close(true);
fs.rmSync(dir, { recursive: true, force: true });
