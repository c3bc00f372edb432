import { describe, expect, it } from 'vitest';
import {
  allowIpEntries,
  effectiveTokenStatus,
  isIpOrCidr,
  normalizeModelLimits,
  stripTokenKeyPrefix,
} from './tokens.js';

describe('effectiveTokenStatus', () => {
  const now = 1_700_000_000;
  const live = { status: 1, expired_time: -1, remain_quota: 10, unlimited_quota: false };

  it('keeps an enabled token with time and quota left enabled', () => {
    expect(effectiveTokenStatus(live, now)).toBe(1);
    expect(effectiveTokenStatus({ ...live, expired_time: now + 1 }, now)).toBe(1);
  });
  it('reads an enabled token past its expiry as expired (3), expiry winning over exhaustion', () => {
    expect(effectiveTokenStatus({ ...live, expired_time: now }, now)).toBe(3);
    expect(effectiveTokenStatus({ ...live, expired_time: now - 1, remain_quota: 0 }, now)).toBe(3);
  });
  it('reads an enabled limited token without quota as exhausted (4), but never an unlimited one', () => {
    expect(effectiveTokenStatus({ ...live, remain_quota: 0 }, now)).toBe(4);
    expect(effectiveTokenStatus({ ...live, remain_quota: -5 }, now)).toBe(4);
    expect(effectiveTokenStatus({ ...live, remain_quota: 0, unlimited_quota: 1 }, now)).toBe(1);
  });
  it('leaves a disabled token disabled whatever its expiry and quota', () => {
    expect(effectiveTokenStatus({ ...live, status: 2, expired_time: 1, remain_quota: 0 }, now)).toBe(2);
  });
  it('recomputes stored 3 and 4 from the current fields, so a fixed token is enabled again', () => {
    expect(effectiveTokenStatus({ ...live, status: 3 }, now)).toBe(1);
    expect(effectiveTokenStatus({ ...live, status: 4, remain_quota: 0 }, now)).toBe(4);
  });
  it('passes unknown codes through', () => {
    expect(effectiveTokenStatus({ ...live, status: 9 }, now)).toBe(9);
  });
});

describe('token field helpers', () => {
  it('strips the sk- prefix and blanks from a key', () => {
    expect(stripTokenKeyPrefix('  sk-abc ')).toBe('abc');
    expect(stripTokenKeyPrefix('abc')).toBe('abc');
  });
  it('normalises model limits to a comma list without blanks or repeats', () => {
    expect(normalizeModelLimits(' gpt-4o , ,claude-3,gpt-4o,')).toBe('gpt-4o,claude-3');
    expect(normalizeModelLimits('')).toBe('');
  });
  it('splits an allow list into trimmed non-blank lines', () => {
    expect(allowIpEntries('1.2.3.4\r\n\n  10.0.0.0/8  \n')).toEqual(['1.2.3.4', '10.0.0.0/8']);
  });
});

describe('isIpOrCidr', () => {
  it.each([
    '0.0.0.0', '127.0.0.1', '255.255.255.255', '10.0.0.0/8', '192.168.1.0/24', '1.2.3.4/32', '1.2.3.4/0',
    '::', '::1', '2001:db8::', '2001:db8::1/64', 'fe80::1:2:3:4', '1:2:3:4:5:6:7:8', '::ffff:192.168.0.1',
    '1:2:3:4:5:6:1.2.3.4', '2001:DB8::/32', '::/0', '1::8', '1:2:3:4:5:6:7::',
  ])('accepts %s', (ip) => expect(isIpOrCidr(ip)).toBe(true));

  it.each([
    '', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.4/33', '1.2.3.4/', '1.2.3.4/01', '1.2.3.4/a',
    'localhost', 'example.com', '1.2.3.4 5.6.7.8', ':::', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', 'g::1',
    '::1/129', '1:2:3:4:5:6:7:1.2.3.4', '::1.2.3', '1.2.3.4::', '1:2:3:4:5:6:7', '-1.2.3.4',
  ])('refuses %s', (ip) => expect(isIpOrCidr(ip)).toBe(false));
});
