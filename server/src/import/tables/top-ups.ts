import { balance } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, float, int, text } from '../values.js';

export function topUpsImport(): TableImport<'top_ups'> {
  const tradeNos = new Set<string>();
  return {
    source: 'top_ups',
    target: 'top_ups',
    reads: ['id', 'user_id', 'amount', 'money', 'trade_no', 'create_time', 'complete_time', 'status', 'payment_method'],
    map(row, ctx) {
      const id = int(row.id);
      let tradeNo = clip(text(row.trade_no), 191);
      if (tradeNo === '' || tradeNos.has(tradeNo)) {
        tradeNo = `imported-${id}`;
        ctx.note('empty or repeated trade_no replaced by imported-<id>');
      }
      tradeNos.add(tradeNo);
      const amount = balance(row.amount, 'amount', ctx);
      // What the order credits (ours fixes it at creation): new-api's epay credits amount x QuotaPerUnit. A success
      // row was credited in the source already and is not credited again.
      return {
        id,
        user_id: int(row.user_id),
        amount,
        money: float(row.money),
        trade_no: tradeNo,
        quota: Math.round(amount * ctx.quotaPerUnit),
        payment_method: clip(text(row.payment_method), 20),
        create_time: int(row.create_time),
        complete_time: int(row.complete_time),
        status: clip(text(row.status, 'pending'), 20),
      };
    },
  };
}
