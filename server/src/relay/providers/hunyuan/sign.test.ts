import { describe, expect, it } from 'vitest';
import { tc3Authorization, tc3Date } from './sign.js';

describe('TC3-HMAC-SHA256', () => {
  it('reproduces the signature of Tencent Cloud’s published example (CVM DescribeInstances, 2019-02-25)', () => {
    const auth = tc3Authorization({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      contentType: 'application/json; charset=utf-8',
      timestamp: 1551113065,
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
    });
    expect(auth).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('scopes to the UTC date, not the local one', () => {
    // 2019-02-26 00:44:25 in UTC+8 is still the 25th in UTC.
    expect(tc3Date(1551113065)).toBe('2019-02-25');
  });

  it('changes with the body, the key and the time', () => {
    const base = { secretId: 'id', secretKey: 'key', service: 'hunyuan', host: 'hunyuan.tencentcloudapi.com', contentType: 'application/json', timestamp: 1700000000, payload: '{}' };
    const a = tc3Authorization(base);
    expect(tc3Authorization({ ...base, payload: '{ }' })).not.toBe(a);
    expect(tc3Authorization({ ...base, secretKey: 'other' })).not.toBe(a);
    expect(tc3Authorization({ ...base, timestamp: 1700000001 })).not.toBe(a);
  });
});
