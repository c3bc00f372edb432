import type { Config } from '../../../config.js';
import type { Db } from '../../../db/connect.js';
import type { OptionReader } from '../../../options/index.js';
import { keeperLimits, ResponsesKeeper, type KeeperOptions } from './store.js';
import { SqlResponsesStore } from './store-sql.js';
import { openRedis } from '../../../lib/redis.js';

/** The keeper over the store the configuration names (RESPONSES_STORE; Redis is loaded only when used). */
export async function openResponsesKeeper(
  config: Config,
  db: Db,
  options: OptionReader,
  keeperOptions: KeeperOptions = {},
  warn: (err: Error) => void = () => {},
): Promise<ResponsesKeeper> {
  const limits = () => keeperLimits(options);
  if (config.responsesStore === 'redis') {
    const { RedisResponsesStore } = await import('./store-redis.js');
    const redis = await openRedis(config.redisConnString, { commandTimeoutMs: config.redisCommandTimeoutSeconds * 1000 }, warn);
    return new ResponsesKeeper(new RedisResponsesStore(redis, () => limits().retentionSeconds), limits, keeperOptions);
  }
  return new ResponsesKeeper(new SqlResponsesStore(db.kysely, db.dialect), limits, keeperOptions);
}
