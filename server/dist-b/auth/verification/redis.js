/*
 * Codes in Redis (when REDIS_CONN_STRING is set): one hash per purpose and address (code, created, expires,
 * attempts), changed only by Lua scripts so two nodes never both use one code. Times are the caller's clock; the
 * key also expires by itself shortly after the code does.
 */
/** KEYS[1]; ARGV: code, now, ttl, gap. 1 stored, 0 refused (a live code younger than the gap). */
const PUT = `
local f = redis.call('HMGET', KEYS[1], 'created', 'expires')
local now = tonumber(ARGV[2])
if f[1] and tonumber(f[2]) > now and tonumber(f[1]) > now - tonumber(ARGV[4]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'code', ARGV[1], 'created', now, 'expires', now + tonumber(ARGV[3]), 'attempts', 0)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]) + 60)
return 1
`;
/** KEYS[1]; ARGV: code, now, max attempts (0: none). 1 when it is the live code; a wrong one counts an attempt. */
const CHECK = `
local f = redis.call('HMGET', KEYS[1], 'code', 'expires')
if not f[1] or tonumber(f[2]) <= tonumber(ARGV[2]) then return 0 end
if f[1] == ARGV[1] then return 1 end
if tonumber(ARGV[3]) == 0 then return 0 end
if redis.call('HINCRBY', KEYS[1], 'attempts', 1) >= tonumber(ARGV[3]) then redis.call('DEL', KEYS[1]) end
return 0
`;
/** KEYS[1]; ARGV: code, now. 1 when the live code was used up by this call. */
const TAKE = `
local f = redis.call('HMGET', KEYS[1], 'code', 'expires')
if not f[1] or f[1] ~= ARGV[1] or tonumber(f[2]) <= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;
/** KEYS[1] the client's counter; ARGV: window (s). The count within the current window, this one included. */
const COUNT_SEND = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
return n
`;
export class RedisCodeBackend {
    prefix;
    redis;
    constructor(redis, prefix = 'switchyard:email-codes:') {
        this.prefix = prefix;
        redis.defineCommand('putCode', { numberOfKeys: 1, lua: PUT });
        redis.defineCommand('checkCode', { numberOfKeys: 1, lua: CHECK });
        redis.defineCommand('takeCode', { numberOfKeys: 1, lua: TAKE });
        redis.defineCommand('countSend', { numberOfKeys: 1, lua: COUNT_SEND });
        this.redis = redis;
    }
    key(purpose, address) {
        return `${this.prefix}${purpose}:${address}`;
    }
    async put(purpose, address, code, now, ttlSeconds, gapSeconds) {
        return (await this.redis.putCode(this.key(purpose, address), code, now, ttlSeconds, gapSeconds)) === 1;
    }
    async check(purpose, address, code, now, maxAttempts) {
        return (await this.redis.checkCode(this.key(purpose, address), code, now, maxAttempts ?? 0)) === 1;
    }
    async take(purpose, address, code, now) {
        return (await this.redis.takeCode(this.key(purpose, address), code, now)) === 1;
    }
    async wait(purpose, address, now, gapSeconds) {
        const [created, expires] = await this.redis.hmget(this.key(purpose, address), 'created', 'expires');
        if (!created || Number(expires) <= now)
            return 0;
        return Math.max(0, Number(created) + gapSeconds - now);
    }
    /** A fixed window per client address that starts with its first mail (on Redis's clock, not the caller's). */
    async countSend(client, _now, windowSeconds) {
        return this.redis.countSend(`${this.prefix}sends:${client}`, windowSeconds);
    }
    async expire() {
        return 0;
    }
    async close() {
        this.redis.disconnect();
    }
}
//# sourceMappingURL=redis.js.map