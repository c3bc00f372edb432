import { describe, expect, it } from 'vitest';
import { RelayError } from '../../errors.js';
import { parseAwsKey } from './key.js';

describe('AWS channel key', () => {
  it('reads AK|SK|Region', () => {
    expect(parseAwsKey('AKIAEXAMPLE|secret/with+chars|us-east-1')).toEqual({
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret/with+chars',
      region: 'us-east-1',
    });
  });

  it('reads a session token as the fourth part, and trims spaces', () => {
    expect(parseAwsKey(' ASIAEXAMPLE | sk | eu-central-1 | FwoGZXIvYXdzEXAMPLE== ')).toEqual({
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: 'sk',
      region: 'eu-central-1',
      sessionToken: 'FwoGZXIvYXdzEXAMPLE==',
    });
  });

  it.each(['', 'AK|SK', 'AK||us-east-1', '|SK|us-east-1', 'AK|SK|', 'AK|SK|not a region', 'AK|SK|us-east-1|', 'AK|SK|us-east-1|T|extra', 'sk-plain-key'])(
    'refuses %j with the channel-key error',
    (key) => {
      let err: unknown;
      try {
        parseAwsKey(key);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RelayError);
      expect(err).toMatchObject({ status: 500, message: 'AWS 渠道密钥格式应为 AK|SK|Region', code: 'invalid_channel_key', type: undefined, local: false });
    },
  );
});
