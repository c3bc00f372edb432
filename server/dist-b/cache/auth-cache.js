/** What cachedToken / cachedUser answer when the cache does not know (the async lookups then ask the database). */
export const NOT_CACHED = Symbol('not cached');
const TOKEN_TOPIC = 'token';
const TOKENS_OF_USER_TOPIC = 'tokens-of-user';
const USER_TOPIC = 'user';
export class AuthCache {
    db;
    bus;
    ttlMs;
    tokens = new Map();
    users = new Map();
    constructor(db, bus, ttlMs) {
        this.db = db;
        this.bus = bus;
        this.ttlMs = ttlMs;
        bus.subscribe(TOKEN_TOPIC, (key) => this.tokens.delete(key));
        bus.subscribe(USER_TOPIC, (id) => this.users.delete(Number(id)));
        bus.subscribe(TOKENS_OF_USER_TOPIC, (id) => this.dropTokensOf(Number(id)));
    }
    /** The token from memory without waiting (undefined: known not to exist), or NOT_CACHED. */
    cachedToken(key) {
        const hit = this.tokens.get(key);
        return hit && hit.expires > Date.now() ? hit.value : NOT_CACHED;
    }
    /** The user from memory without waiting (undefined: known not to exist), or NOT_CACHED. */
    cachedUser(id) {
        const hit = this.users.get(id);
        return hit && hit.expires > Date.now() ? hit.value : NOT_CACHED;
    }
    async token(key) {
        const now = Date.now();
        const hit = this.tokens.get(key);
        if (hit && hit.expires > now)
            return hit.value;
        const value = await this.db.selectFrom('tokens').selectAll().where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
        // Unknown keys are remembered briefly too, so a flood of bad keys does not reach the database each time.
        this.tokens.set(key, { value, expires: now + (value ? this.ttlMs : Math.min(this.ttlMs, 5000)) });
        return value;
    }
    async user(id) {
        const now = Date.now();
        const hit = this.users.get(id);
        if (hit && hit.expires > now)
            return hit.value;
        const value = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
        this.users.set(id, { value, expires: now + this.ttlMs });
        return value;
    }
    /** After the console changed a token (status, quota, limits, deletion). */
    forgetToken(key) {
        this.tokens.delete(key);
        void this.bus.publish(TOKEN_TOPIC, key);
    }
    /** After the console changed any token of a user. */
    forgetTokensOf(userId) {
        this.dropTokensOf(userId);
        void this.bus.publish(TOKENS_OF_USER_TOPIC, String(userId));
    }
    dropTokensOf(userId) {
        for (const [key, entry] of this.tokens)
            if (entry.value?.user_id === userId)
                this.tokens.delete(key);
    }
    /** After the console changed a user (status, role, group, quota, deletion). */
    forgetUser(id) {
        this.users.delete(id);
        void this.bus.publish(USER_TOPIC, String(id));
    }
    /** Local bookkeeping after a charge, so the next check on this node sees a closer balance. */
    noteCharge(tokenKey, userId, quota) {
        const t = this.tokens.get(tokenKey)?.value;
        if (t && !t.unlimited_quota)
            t.remain_quota -= quota;
        const u = this.users.get(userId)?.value;
        if (u)
            u.quota -= quota;
    }
}
//# sourceMappingURL=auth-cache.js.map