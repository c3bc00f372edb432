import { describe, expect, it } from 'vitest';
import { geminiErrorBody } from './errors.js';

describe('Gemini error bodies', () => {
  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [422, 'INVALID_ARGUMENT'],
    [507, 'INTERNAL'],
  ])('%i is %s', (status, name) => {
    expect(geminiErrorBody(status, '无效的令牌')).toEqual({ error: { code: status, message: '无效的令牌', status: name } });
  });
});
