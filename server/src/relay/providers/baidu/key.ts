import { RelayError } from '../../errors.js';

/** A Qianfan v1 application's credentials: the channel key `apiKey|secretKey` (client id and secret). */
export interface BaiduKey {
  apiKey: string;
  secretKey: string;
}

export function parseBaiduKey(key: string): BaiduKey {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new RelayError(500, '百度文心渠道密钥格式应为 APIKey|SecretKey', 'invalid_channel_key', undefined, false);
  return { apiKey: parts[0], secretKey: parts[1] };
}
