import { RelayError } from '../../errors.js';

export interface SparkKey {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

/** The channel key `appId|apiSecret|apiKey`, in the order iFlytek's console lists them. */
export function parseSparkKey(key: string): SparkKey {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => p === '')) {
    throw new RelayError(500, '讯飞星火渠道的密钥格式应为 APPID|APISecret|APIKey', 'invalid_channel_key', undefined, false);
  }
  const [appId, apiSecret, apiKey] = parts;
  return { appId, apiSecret, apiKey };
}
