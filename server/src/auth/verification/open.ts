import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { EmailCodes } from './index.js';
import { SqlCodeBackend } from './sql.js';
import { openRedis } from '../../lib/redis.js';

/** Codes in Redis when REDIS_CONN_STRING is set, else in the database (Redis is loaded only when used). */
export async function openEmailCodes(config: Config, db: Db, warn: (err: Error) => void = () => {}): Promise<EmailCodes> {
  if (config.redisConnString) {
    const { RedisCodeBackend } = await import('./redis.js');
    const redis = await openRedis(config.redisConnString, { commandTimeoutMs: config.redisCommandTimeoutSeconds * 1000 }, warn);
    return new EmailCodes(new RedisCodeBackend(redis));
  }
  return new EmailCodes(new SqlCodeBackend(db.kysely));
}
