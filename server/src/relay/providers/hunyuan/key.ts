import { RelayError } from '../../errors.js';

export interface TencentKey {
  appId: string;
  secretId: string;
  secretKey: string;
}

/** The channel key `appId|secretId|secretKey` (the AppId is not part of a TC3 call, but the format names it). */
export function parseTencentKey(key: string): TencentKey {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => p === '')) {
    throw new RelayError(500, '腾讯混元渠道的密钥格式应为 AppId|SecretId|SecretKey', 'invalid_channel_key', undefined, false);
  }
  const [appId, secretId, secretKey] = parts;
  return { appId, secretId, secretKey };
}
