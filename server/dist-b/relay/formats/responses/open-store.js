import { keeperLimits, ResponsesKeeper } from './store.js';
import { SqlResponsesStore } from './store-sql.js';
/** The keeper over the store the configuration names (RESPONSES_STORE; Redis is loaded only when used). */
export async function openResponsesKeeper(config, db, options, keeperOptions = {}) {
    const limits = () => keeperLimits(options);
    if (config.responsesStore === 'redis') {
        const [{ Redis }, { RedisResponsesStore }] = await Promise.all([import('ioredis'), import('./store-redis.js')]);
        const redis = new Redis(config.redisConnString, { maxRetriesPerRequest: 3 });
        return new ResponsesKeeper(new RedisResponsesStore(redis, () => limits().retentionSeconds), limits, keeperOptions);
    }
    return new ResponsesKeeper(new SqlResponsesStore(db.kysely, db.dialect), limits, keeperOptions);
}
//# sourceMappingURL=open-store.js.map