import { describe, expect, it } from 'vitest';
import type { Settlement } from '../../store/quota.js';
import { LOG_COLUMNS } from '../../store/quota-sqlite.js';
import { batchLine, headerLine, parseJournal, settlementLine, writtenLine } from './format.js';

/*
 * A journal line says everything its settlement's replay writes: the reservation (with the journal row it deletes),
 * the cost, the channel and the whole consume log, read back exactly. Files written by earlier versions (settlements
 * as objects, logs with fewer columns) are still read.
 */

const withLog: Settlement = {
  reservation: { userId: 7, tokenId: 12, tokenUnlimited: false, amount: 300, id: 'r-9' },
  cost: 245,
  channelId: 3,
  countsAsRequest: true,
  log: {
    user_id: 7, created_at: 1_796_000_000, type: 2, content: '模型倍率 2.5，补全倍率 4，分组倍率 1', username: 'ann "q"', token_name: 'default',
    model_name: 'gpt-4o-mini', quota: 245, prompt_tokens: 412, completion_tokens: 96, use_time: 2, is_stream: 1, channel_id: 3, token_id: 12,
    group: 'default', ip: '203.0.113.7', other: '{"model_ratio":2.5,"admin_info":{"use_channel":[3]}}', cache_tokens: 128,
  },
};
const refund: Settlement = { reservation: { userId: 7, tokenId: 0, tokenUnlimited: true, amount: 40 }, cost: 0, channelId: 0, countsAsRequest: false, log: null };

describe('journal lines', () => {
  it('read back every field of a settlement, with and without its consume log', () => {
    const text = headerLine('db') + settlementLine(withLog) + settlementLine(refund) + batchLine('b1', 2) + writtenLine('b1');
    expect(parseJournal(text)).toEqual({ batches: [{ id: 'b1', settlements: [withLog, refund], written: true }], unassigned: [] });
  });

  it('are one line each, whatever the texts hold', () => {
    const s = { ...withLog, log: { ...withLog.log!, content: 'a\nb\u2028c' } };
    expect(settlementLine(s).split('\n')).toHaveLength(2);
    expect(parseJournal(settlementLine(s)).unassigned).toEqual([s]);
  });

  it('of earlier versions are still read: a settlement as an object, a log with fewer columns', () => {
    const objectLine = `{"s":${JSON.stringify(withLog)}}\n`;
    const fields = JSON.parse(settlementLine(withLog).slice(5, -2)) as unknown[];
    const fewer = `{"t":${JSON.stringify(fields.slice(0, -1))}}\n`;
    const { unassigned } = parseJournal(objectLine + fewer);
    expect(unassigned[0]).toEqual(withLog);
    const { cache_tokens: _dropped, ...older } = withLog.log!;
    expect(unassigned[1]).toEqual({ ...withLog, log: older });
  });

  it('skip a line whose fields are not a settlement, and a last line cut short', () => {
    const whole = settlementLine(refund);
    const text = `{"t":[1,2]}\n{"t":${JSON.stringify(new Array(9 + LOG_COLUMNS.length).fill(0))}}\n${whole}${whole.slice(0, 20)}`;
    expect(parseJournal(text).unassigned).toEqual([refund]);
  });
});
