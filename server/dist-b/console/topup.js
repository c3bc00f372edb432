import { z } from 'zod';
import { caller } from '../auth/guard.js';
import { fail } from '../lib/errors.js';
import { acceptEpayNotice, createEpayOrder, priceTopUp } from '../services/payment/topup.js';
import { TOPUP_MESSAGES } from '../services/payment/pricing.js';
import { ok } from './envelope.js';
import { parse } from './input.js';
/*
 * Online top-up (spec §7 Top-up): the price preview, the epay order, and the gateway's payment notice.
 * Redeeming a code (POST /api/user/topup) lives with the redemption codes.
 */
const amount = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const AmountBody = z.object({ amount, top_up_code: z.string().optional() });
const PayBody = z.object({ amount, payment_method: z.enum(['zfb', 'wx']), top_up_code: z.string().optional() });
/** An amount must be whole; said in the page's words rather than as a schema error. */
function wholeAmount(value) {
    if (!Number.isSafeInteger(value))
        throw fail(TOPUP_MESSAGES.notInteger);
    return value;
}
/** Query or form fields as plain strings (the first of repeated ones). */
function noticeParams(source) {
    const out = {};
    if (typeof source !== 'object' || source === null)
        return out;
    for (const [k, v] of Object.entries(source)) {
        const first = Array.isArray(v) ? v[0] : v;
        if (typeof first === 'string')
            out[k] = first;
    }
    return out;
}
export const topupRoutes = async (app) => {
    const { ctx } = app;
    const user = { config: { access: 'user' } };
    const open = { config: { access: 'public' } };
    // Some epay deployments post the notice as a form instead of a GET; read it the same way (this plugin only).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    app.post('/user/amount', user, async (request) => {
        const body = parse(AmountBody, request.body);
        return ok(priceTopUp(ctx.options, caller(request), wholeAmount(body.amount)), 'success');
    });
    app.post('/user/pay', user, async (request) => {
        const body = parse(PayBody, request.body);
        const order = await createEpayOrder(ctx, caller(request), {
            amount: wholeAmount(body.amount),
            paymentMethod: body.payment_method,
        });
        return { success: true, message: 'success', data: order.fields, url: order.url };
    });
    const notice = async (request, reply) => {
        const params = noticeParams(request.method === 'GET' ? request.query : request.body);
        let answer;
        try {
            answer = await acceptEpayNotice(ctx, params);
        }
        catch (err) {
            request.log.error({ err, outTradeNo: params.out_trade_no }, 'handling an epay notice failed');
            answer = 'fail';
        }
        return reply.type('text/plain; charset=utf-8').send(answer);
    };
    app.get('/user/epay/notify', open, notice);
    app.post('/user/epay/notify', open, notice);
};
//# sourceMappingURL=topup.js.map