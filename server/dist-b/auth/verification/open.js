import { EmailCodes } from './index.js';
import { SqlCodeBackend } from './sql.js';
/** Codes in Redis when REDIS_CONN_STRING is set, else in the database (Redis is loaded only when used). */
export async function openEmailCodes(config, db) {
    if (config.redisConnString) {
        const [{ Redis }, { RedisCodeBackend }] = await Promise.all([import('ioredis'), import('./redis.js')]);
        return new EmailCodes(new RedisCodeBackend(new Redis(config.redisConnString, { maxRetriesPerRequest: 3 })));
    }
    return new EmailCodes(new SqlCodeBackend(db.kysely));
}
//# sourceMappingURL=open.js.map