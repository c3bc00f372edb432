import { LOG_TYPE, TOPUP_STATUS } from '@switchyard/shared';
import { recordLog } from './logs.js';
import { addUserQuota } from './users.js';
/** Online top-up orders (top_ups). An order is made pending and becomes success once, when its payment is confirmed. */
export async function insertTopUp(db, order) {
    await db
        .insertInto('top_ups')
        .values({ ...order, status: TOPUP_STATUS.PENDING, complete_time: 0 })
        .execute();
}
export async function findTopUpByTradeNo(db, tradeNo) {
    return db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();
}
/**
 * Marks a pending order paid and credits its quota, with the top-up log, in one transaction. The status moves by
 * a conditional update (pending -> success), so however many notices for the order arrive, at once or later,
 * exactly one of them credits. Returns the order when this call credited it, null when it was not pending.
 */
export async function completeTopUp(db, tradeNo, completeTime, logContent) {
    return db.transaction().execute(async (trx) => {
        const res = await trx
            .updateTable('top_ups')
            .set({ status: TOPUP_STATUS.SUCCESS, complete_time: completeTime })
            .where('trade_no', '=', tradeNo)
            .where('status', '=', TOPUP_STATUS.PENDING)
            .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1)
            return null;
        const order = await trx.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();
        if (!(await addUserQuota(trx, order.user_id, order.quota))) {
            // The buyer's account row is gone: undo the status change so the order stays visible as unpaid-out.
            throw new Error(`top-up ${tradeNo}: user ${order.user_id} not found`);
        }
        await recordLog(trx, { userId: order.user_id, type: LOG_TYPE.TOPUP, content: logContent(order), quota: order.quota });
        return order;
    });
}
//# sourceMappingURL=topups.js.map