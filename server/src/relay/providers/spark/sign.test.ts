import { describe, expect, it } from 'vitest';
import { signedSparkUrl, sparkAuthorization, sparkSignature } from './sign.js';

/** The example of iFlytek's "WebSocket 协议通用鉴权 URL 生成说明". */
const DOC = { host: 'spark-api.xf-yun.com', date: 'Fri, 05 May 2023 10:43:39 GMT', path: '/v1.1/chat' };
const DOC_SECRET = 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi';

describe('Spark handshake signature', () => {
  it('reproduces the digest of iFlytek’s published example', () => {
    // The document prints the digest as Python bytes: b'\xcf\x98\x07v\xed\xe9\xc5Ux\x0032\x93\x8e\xbb\xc0\xe5\x83C\xda\xba\x05\x0c\xd1\xdew\xccN7?\r\xa4'
    const digest = Buffer.from('cf980776ede9c55578003332938ebbc0e58343daba050cd1de77cc4e373f0da4', 'hex');
    expect(sparkSignature(DOC_SECRET, DOC)).toBe(digest.toString('base64'));
  });

  it('wraps the signature with the key, the algorithm and the signed headers, in base64', () => {
    const auth = Buffer.from(sparkAuthorization('my-api-key', DOC_SECRET, DOC), 'base64').toString('utf8');
    expect(auth).toBe(`api_key="my-api-key", algorithm="hmac-sha256", headers="host date request-line", signature="${sparkSignature(DOC_SECRET, DOC)}"`);
  });

  it('signs the URL’s own host (port included) and path, dated in RFC 1123 GMT', () => {
    const now = new Date('2023-05-05T10:43:39Z');
    const url = new URL(signedSparkUrl('wss://spark-api.xf-yun.com/v1.1/chat', 'my-api-key', DOC_SECRET, now));
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://spark-api.xf-yun.com/v1.1/chat');
    expect(url.searchParams.get('date')).toBe(DOC.date);
    expect(url.searchParams.get('host')).toBe(DOC.host);
    expect(url.searchParams.get('authorization')).toBe(sparkAuthorization('my-api-key', DOC_SECRET, DOC));

    const local = new URL(signedSparkUrl('ws://127.0.0.1:8080/chat/max-32k', 'k', 's', now));
    expect(local.searchParams.get('host')).toBe('127.0.0.1:8080');
    expect(local.searchParams.get('authorization')).toBe(sparkAuthorization('k', 's', { host: '127.0.0.1:8080', date: DOC.date, path: '/chat/max-32k' }));
  });
});
