import { RelayError } from '../../errors.js';
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
/** A channel key `AK|SK|Region` or `AK|SK|Region|SessionToken`. */
export function parseAwsKey(key) {
    const parts = key.trim().split('|').map((p) => p.trim());
    const [accessKeyId, secretAccessKey, region, sessionToken] = parts;
    if ((parts.length !== 3 && parts.length !== 4) || !accessKeyId || !secretAccessKey || !REGION.test(region) || parts[3] === '') {
        throw new RelayError(500, 'AWS 渠道密钥格式应为 AK|SK|Region', 'invalid_channel_key', undefined, false);
    }
    return sessionToken ? { accessKeyId, secretAccessKey, region, sessionToken } : { accessKeyId, secretAccessKey, region };
}
//# sourceMappingURL=key.js.map