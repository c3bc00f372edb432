import { describe, expect, it } from 'vitest';
import { claudeErrorBody } from './errors.js';

describe('Claude error bodies', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
    [422, 'invalid_request_error'],
    [502, 'api_error'],
  ])('status %i is %s', (status, type) => {
    expect(JSON.parse(claudeErrorBody(status, '额度不足'))).toEqual({ type: 'error', error: { type, message: '额度不足' } });
  });
});
