import { STATE } from './store.js';
/** KEYS[1] the user's set; ARGV: cutoff (unix s), limit (bytes), hash key prefix. Returns how many were evicted. */
const EVICT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local sizes = {}
local total = 0
for i, m in ipairs(members) do
  sizes[i] = tonumber(string.match(m, '|(%d+)$')) or 0
  total = total + sizes[i]
end
local limit = tonumber(ARGV[2])
local evicted = 0
local i = 1
while total > limit and i <= #members do
  local key = ARGV[3] .. string.match(members[i], '^(.*)|')
  if redis.call('HGET', key, 'state') == '1' then
    redis.call('HSET', key, 'state', '2', 'bytes', '0')
    redis.call('HDEL', key, 'response', 'input')
    evicted = evicted + 1
  end
  redis.call('ZREM', KEYS[1], members[i])
  total = total - sizes[i]
  i = i + 1
end
return evicted
`;
export class RedisResponsesStore {
    retentionSeconds;
    prefix;
    redis;
    /** retentionSeconds is read at each write: a response's key lives that long. */
    constructor(redis, retentionSeconds, prefix = 'switchyard:responses:') {
        this.retentionSeconds = retentionSeconds;
        this.prefix = prefix;
        redis.defineCommand('evictResponses', { numberOfKeys: 1, lua: EVICT });
        this.redis = redis;
    }
    key(id) {
        return this.prefix + id;
    }
    userKey(userId) {
        return `${this.prefix}user:${userId}`;
    }
    async read(userId, ids, withInput) {
        const fields = withInput ? ['user', 'created', 'state', 'response', 'input'] : ['user', 'created', 'state', 'response'];
        const pipeline = this.redis.pipeline();
        for (const id of ids)
            pipeline.hmget(this.key(id), ...fields);
        const results = (await pipeline.exec()) ?? [];
        const out = new Map();
        ids.forEach((id, i) => {
            const [err, values] = results[i] ?? [];
            if (err)
                throw err;
            const [user, created, state, response, input] = values;
            if (user === null || Number(user) !== userId)
                return;
            const createdAt = Number(created);
            if (Number(state) !== STATE.stored) {
                out.set(id, { state: Number(state), createdAt });
                return;
            }
            if (response === null)
                return;
            out.set(id, {
                state: STATE.stored,
                createdAt,
                response: JSON.parse(response),
                input: withInput && input !== null ? JSON.parse(input) : undefined,
            });
        });
        return out;
    }
    async write(rows) {
        const ttl = Math.max(1, Math.ceil(this.retentionSeconds()));
        const pipeline = this.redis.pipeline();
        for (const row of rows) {
            const key = this.key(row.id);
            const fields = { user: row.userId, created: row.createdAt, state: row.state, bytes: row.bytes };
            if (row.state === STATE.stored)
                Object.assign(fields, { response: row.response, input: row.input });
            pipeline.hset(key, fields).expire(key, ttl);
            if (row.state === STATE.stored) {
                const userKey = this.userKey(row.userId);
                pipeline.zadd(userKey, row.createdAt, `${row.id}|${row.bytes}`).expire(userKey, ttl);
            }
        }
        const results = (await pipeline.exec()) ?? [];
        const outcome = { failed: [], errors: [] };
        for (const [err] of results)
            if (err)
                outcome.errors.push(err);
        // A failed command leaves its response incomplete: write it again (HSET and ZADD are idempotent).
        if (outcome.errors.length > 0)
            outcome.failed.push(...rows.map((r) => r.id));
        return outcome;
    }
    async evict(userId, limits) {
        await this.redis.evictResponses(this.userKey(userId), limits.cutoff, limits.userBytes, this.prefix);
    }
    async delete(userId, id) {
        const key = this.key(id);
        const [user, bytes] = await this.redis.hmget(key, 'user', 'bytes');
        if (user === null || Number(user) !== userId)
            return false;
        await this.redis.multi().del(key).zrem(this.userKey(userId), `${id}|${bytes ?? 0}`).exec();
        return true;
    }
    /** Keys expire by themselves (their TTL is the retention time when written); reads ignore older ones. */
    async expire() {
        return 0;
    }
    async close() {
        this.redis.disconnect();
    }
}
//# sourceMappingURL=store-redis.js.map