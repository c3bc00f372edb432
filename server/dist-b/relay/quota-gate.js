import { reserveQuota } from '../store/quota.js';
/*
 * Reservations that do not fit now, made to wait for the balance the same user's calls in flight will give back.
 *
 * A call reserves its estimate (prompt + PreConsumedQuota, or + max_tokens), usually many times what it will cost.
 * When a user near the end of their balance sends many calls at once, the first few reservations hold the whole
 * balance; refused at once, the rest would fail although the balance covers them many times over (1,000 calls on a
 * balance for ~300: only ~20 answered). Instead, a call whose reservation does not fit while this node holds
 * reservations of the same user waits, in arrival order, and tries again each time a settlement of that user lands
 * (the settler then writes at once rather than after its interval) and every POLL_MS (for what other nodes give
 * back). It is refused when it reaches MAX_WAIT_MS, or at once when nothing is in flight that could free the
 * balance and a short grace has passed. Nothing here can overdraw: every reservation is still the store's
 * conditional update.
 */
/** The longest a call waits for its user's balance to come back. */
export const MAX_WAIT_MS = 10_000;
/** How long a call waits when this node has nothing of the user's in flight (another node may). */
export const GRACE_MS = 300;
const POLL_MS = 100;
export class QuotaGate {
    db;
    flushSoon;
    now;
    /** Per user: reservations this node holds (calls admitted and not yet settled). */
    held = new Map();
    /**
     * Per user: settlements of reservations queued and not yet written. Their balance is on its way back: while the
     * database cannot take a settlement batch (it is retried), calls keep waiting for it rather than being refused.
     */
    unwritten = new Map();
    /** Per user: calls waiting, oldest first. */
    waiting = new Map();
    /** Users whose queue is being tried now (one try at a time per user). */
    trying = new Set();
    timer = null;
    constructor(db, 
    /** Asks the settler to write what it holds now (releases are what waiters wait for). */
    flushSoon, now = Date.now) {
        this.db = db;
        this.flushSoon = flushSoon;
        this.now = now;
    }
    /** Takes `amount` from the user and token, waiting for the balance the user's calls in flight give back. */
    async reserve(r) {
        // A queue already waiting goes first: a newcomer must not take the balance its elders wait for.
        const outcome = this.waiting.has(r.userId) ? 'user_short' : await reserveQuota(this.db, r);
        if (outcome === 'ok') {
            this.hold(r.userId);
            return outcome;
        }
        const now = this.now();
        return new Promise((resolve) => {
            const queue = this.waiting.get(r.userId) ?? [];
            queue.push({ reservation: r, deadline: now + MAX_WAIT_MS, graceEnd: now + GRACE_MS, last: outcome, resolve });
            this.waiting.set(r.userId, queue);
            this.poll();
            if (queue.length === 1)
                void this.tryQueue(r.userId);
        });
    }
    /** A reservation of the user is settled or refunded (queued for writing): its balance will come back. */
    release(userId) {
        decrement(this.held, userId);
        this.unwritten.set(userId, (this.unwritten.get(userId) ?? 0) + 1);
        if (this.waiting.has(userId))
            this.flushSoon();
    }
    /** Settlements of reservations were written, one user id per settlement: the users' waiting calls try again. */
    settled(userIds) {
        const users = new Set();
        for (const id of userIds) {
            decrement(this.unwritten, id);
            users.add(id);
        }
        for (const id of users)
            if (this.waiting.has(id))
                void this.tryQueue(id);
    }
    /** Calls waiting now, for all users (tests and metrics). */
    get waitingCalls() {
        let n = 0;
        for (const q of this.waiting.values())
            n += q.length;
        return n;
    }
    hold(userId) {
        this.held.set(userId, (this.held.get(userId) ?? 0) + 1);
    }
    async tryQueue(userId) {
        if (this.trying.has(userId))
            return;
        this.trying.add(userId);
        try {
            for (let queue = this.waiting.get(userId); queue && queue.length > 0; queue = this.waiting.get(userId)) {
                const head = queue[0];
                let outcome;
                try {
                    outcome = await reserveQuota(this.db, head.reservation);
                }
                catch {
                    outcome = head.last;
                }
                if (outcome === 'ok') {
                    this.hold(userId);
                    this.take(userId, 'ok');
                    continue;
                }
                head.last = outcome;
                if (!this.expired(head, userId))
                    break;
                this.take(userId, outcome);
            }
        }
        finally {
            this.trying.delete(userId);
        }
    }
    expired(w, userId) {
        const now = this.now();
        return now >= w.deadline || (now >= w.graceEnd && !this.held.has(userId) && !this.unwritten.has(userId));
    }
    take(userId, outcome) {
        const queue = this.waiting.get(userId);
        queue.shift().resolve(outcome);
        if (queue.length === 0)
            this.waiting.delete(userId);
    }
    /** While anyone waits: try every queue now and then (balance given back by other nodes), and let the expired go. */
    poll() {
        if (this.timer)
            return;
        this.timer = setTimeout(() => {
            this.timer = null;
            for (const userId of [...this.waiting.keys()])
                void this.tryQueue(userId);
            if (this.waiting.size > 0)
                this.poll();
        }, POLL_MS);
        this.timer.unref();
    }
}
function decrement(counts, userId) {
    const n = (counts.get(userId) ?? 1) - 1;
    if (n > 0)
        counts.set(userId, n);
    else
        counts.delete(userId);
}
//# sourceMappingURL=quota-gate.js.map