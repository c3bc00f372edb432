import { caller } from '../auth/guard.js';
import { fail } from '../lib/errors.js';
import { nowSeconds } from '../lib/time.js';
import { quotaDataSeries } from '../store/quota-data.js';
import { ok } from './envelope.js';
import { queryText, queryTime } from './query.js';
/*
 * The data dashboard (spec §7, reference §7.3): usage per model and hour from the `quota_data` roll-up.
 * GET /api/data/ (admin): every user summed, or one user by `username`. GET /api/data/self: the caller's own,
 * at most one month per call.
 */
export const DATA_MESSAGES = {
    spanTooLong: '时间跨度不能超过 1 个月',
};
/** The longest window the self view answers (30 days). */
export const SELF_MAX_SPAN_SECONDS = 30 * 86400;
/** The window when the caller gives no start: the day before the end. */
const DEFAULT_SPAN_SECONDS = 86400;
/** start_timestamp / end_timestamp in unix seconds; a missing end is now, a missing start one day before the end. */
function rangeOf(query) {
    const endAsked = queryTime(query, 'end_timestamp');
    const startAsked = queryTime(query, 'start_timestamp');
    const end = endAsked > 0 ? endAsked : nowSeconds();
    const start = startAsked > 0 ? startAsked : end - DEFAULT_SPAN_SECONDS;
    return { start, end };
}
export const dataRoutes = async (app) => {
    const db = app.ctx.db.kysely;
    const admin = { config: { access: 'admin' } };
    const user = { config: { access: 'user' } };
    const all = async (request) => {
        const query = request.query;
        const username = queryText(query, 'username');
        return ok(await quotaDataSeries(db, { ...rangeOf(query), username: username || undefined }));
    };
    app.get('/data/', admin, all);
    app.get('/data', admin, all);
    const self = async (request) => {
        const range = rangeOf(request.query);
        if (range.end - range.start > SELF_MAX_SPAN_SECONDS)
            throw fail(DATA_MESSAGES.spanTooLong);
        const me = caller(request);
        const rows = await quotaDataSeries(db, { ...range, userId: me.id });
        return ok(rows.map((row) => ({ ...row, username: me.username })));
    };
    app.get('/data/self/', user, self);
    app.get('/data/self', user, self);
};
//# sourceMappingURL=data.js.map