import { RelayError } from '../../errors.js';
import { keptInput } from './input-items.js';
import { BatchQueue } from '../../../lib/batch-queue.js';
export const STATE = { stored: 1, evicted: 2, tooLarge: 3 };
const MB = 1024 * 1024;
/** The limits as the options say now. */
export function keeperLimits(options) {
    return {
        retentionSeconds: Math.max(0, options.get('ResponsesRetentionDays')) * 86_400,
        maxResponseBytes: Math.max(0, options.get('ResponsesMaxResponseMB')) * MB,
        maxUserBytes: Math.max(0, options.get('ResponsesMaxUserMB')) * MB,
    };
}
/** The size limits in MB, as messages name them. */
export const keeperLimitsMB = (l) => ({ maxResponseMB: l.maxResponseBytes / MB, maxUserMB: l.maxUserBytes / MB });
class Pending {
    kept;
    attempts = 0;
    row = null;
    items = null;
    constructor(kept) {
        this.kept = kept;
    }
    input() {
        return (this.items ??= keptInput(this.kept.input, this.kept.base));
    }
    /** Serialised once: for the write, and to answer "too large" consistently before it. */
    toRow(maxBytes) {
        if (this.row)
            return this.row;
        const { id, userId, createdAt } = this.kept;
        const response = JSON.stringify(this.kept.response);
        const input = JSON.stringify(this.input());
        const bytes = Buffer.byteLength(response) + Buffer.byteLength(input);
        this.row =
            bytes > maxBytes
                ? { id, userId, createdAt, state: STATE.tooLarge, bytes: 0, response: '', input: '' }
                : { id, userId, createdAt, state: STATE.stored, bytes, response, input };
        return this.row;
    }
}
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** How much of ResponsesMaxUserMB a node writes for a user before it sums the user's total again. */
const CHECK_EVERY = 1 / 16;
export class ResponsesKeeper extends BatchQueue {
    backend;
    limits;
    options;
    pending = new Map();
    /** Bytes written per user since this node last checked the user's total. */
    unchecked = new Map();
    maxAttempts;
    constructor(backend, limits, options = {}) {
        super(options.intervalMs ?? 100, options.maxBatch ?? 50);
        this.backend = backend;
        this.limits = limits;
        this.options = options;
        this.maxAttempts = options.maxAttempts ?? 5;
    }
    limitsNow() {
        return this.limits();
    }
    /** Responses waiting to be written. */
    get waiting() {
        return this.queue.length;
    }
    /** Queues a delivered response; the call that made it does not wait for the write. */
    keep(kept) {
        const p = new Pending(kept);
        this.pending.set(kept.id, p);
        this.enqueue(p);
    }
    /** The caller's responses among ids (with their input when asked), expired ones left out. */
    async find(userId, ids, withInput) {
        const out = new Map();
        const { maxResponseBytes, retentionSeconds } = this.limits();
        const rest = [];
        for (const id of ids) {
            const p = this.pending.get(id);
            if (!p || p.kept.userId !== userId) {
                rest.push(id);
                continue;
            }
            const row = p.toRow(maxResponseBytes);
            out.set(id, row.state === STATE.stored
                ? { state: STATE.stored, createdAt: row.createdAt, response: p.kept.response, input: withInput ? p.input() : undefined }
                : { state: row.state, createdAt: row.createdAt });
        }
        if (rest.length > 0) {
            const cutoff = nowSeconds() - retentionSeconds;
            for (const [id, found] of await this.unavailableOnError(this.backend.read(userId, rest, withInput))) {
                if (found.createdAt >= cutoff)
                    out.set(id, found);
            }
        }
        return out;
    }
    /** A store that cannot be read (the database or Redis down) is a 503 to the caller, never a "not found". */
    async unavailableOnError(work) {
        try {
            return await work;
        }
        catch (err) {
            this.options.onReadError?.(err);
            throw new RelayError(503, '暂时无法读取已保存的响应，请稍后再试', 'responses_store_unavailable', 'server_error');
        }
    }
    async findOne(userId, id, withInput) {
        return (await this.find(userId, [id], withInput)).get(id);
    }
    /** Deletes the caller's response; false when the caller has none by that id. */
    async remove(userId, id) {
        const p = this.pending.get(id);
        const mine = p !== undefined && p.kept.userId === userId;
        if (mine) {
            this.pending.delete(id);
            this.queue = this.queue.filter((q) => q !== p);
        }
        // A batch being written may hold it: delete after that write.
        await this.flushing;
        const deleted = await this.unavailableOnError(this.backend.delete(userId, id));
        return mine || deleted;
    }
    /** Deletes expired responses (the retention job). */
    expire() {
        return this.backend.expire(nowSeconds() - this.limits().retentionSeconds);
    }
    async close() {
        await this.flush();
        // What failed to write gets its remaining attempts now: there is no later batch.
        while (this.queue.length > 0)
            await this.flush();
        await this.backend.close();
    }
    async write(batch) {
        if (batch.length === 0)
            return;
        const { maxResponseBytes, maxUserBytes, retentionSeconds } = this.limits();
        const live = batch.filter((p) => this.pending.get(p.kept.id) === p);
        let outcome;
        const rows = live.map((p) => p.toRow(maxResponseBytes));
        try {
            outcome = await this.backend.write(rows);
        }
        catch (err) {
            outcome = { failed: live.map((p) => p.kept.id), errors: [err] };
        }
        const failed = new Set(outcome.failed);
        for (const row of rows)
            if (!failed.has(row.id))
                this.unchecked.set(row.userId, (this.unchecked.get(row.userId) ?? 0) + row.bytes);
        await this.evictBeyond({ cutoff: nowSeconds() - retentionSeconds, userBytes: maxUserBytes }, outcome.errors);
        let givenUp = 0;
        for (const p of live) {
            if (this.pending.get(p.kept.id) !== p)
                continue;
            if (!failed.has(p.kept.id))
                this.pending.delete(p.kept.id);
            // Again with a later batch, a second later per failure so far (about 10 s in all before giving up).
            else if (++p.attempts < this.maxAttempts)
                this.enqueue(p, 1000 * p.attempts);
            else {
                this.pending.delete(p.kept.id);
                givenUp++;
            }
        }
        if (outcome.errors.length > 0)
            this.options.onError?.(outcome.errors[0], failed.size, givenUp);
    }
    /** The per-user limit, for the users this node has written enough for since it last looked. */
    async evictBeyond(limits, errors) {
        const threshold = limits.userBytes * CHECK_EVERY;
        for (const [userId, bytes] of this.unchecked) {
            if (bytes === 0 || bytes < threshold)
                continue;
            this.unchecked.delete(userId);
            try {
                await this.backend.evict(userId, limits);
            }
            catch (err) {
                errors.push(err);
            }
        }
    }
}
//# sourceMappingURL=store.js.map