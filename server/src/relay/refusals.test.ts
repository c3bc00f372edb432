import { describe, expect, it } from 'vitest';
import { disablesChannel } from './health.js';
import { parseGeminiError } from './providers/gemini/errors.js';
import { refusalFor } from './refusals.js';

describe('what a caller is told of an upstream refusal', () => {
  const parsed = { message: 'Invalid value for temperature', type: 'invalid_request_error', code: 'invalid_value' };

  it('keeps the status, message, code and, from an OpenAI-shaped upstream, the type', () => {
    expect(refusalFor(400, 400, parsed, 'openai')).toMatchObject({ status: 400, message: parsed.message, code: 'invalid_value', type: 'invalid_request_error', local: false });
  });

  it('leaves the type to the status when the upstream speaks another error shape, or was unreadable', () => {
    expect(refusalFor(529, 529, { message: 'Overloaded', type: 'overloaded_error', code: 'overloaded_error' }, 'claude').type).toBeUndefined();
    expect(refusalFor(500, 500, { message: 'bad response status code 500', type: 'upstream_error', code: '' }, 'openai')).toMatchObject({ type: undefined, code: 'upstream_500' });
  });

  it('turns a refused key (401, 403, or a key the upstream calls invalid) into the gateway 502 upstream_auth_failed', () => {
    for (const status of [401, 403]) expect(refusalFor(status, status, parsed, 'openai')).toMatchObject({ status: 502, code: 'upstream_auth_failed', local: false });
    const google = parseGeminiError(400, JSON.stringify({ error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } }));
    expect(google.credentials).toBe(true);
    expect(refusalFor(400, 400, google, 'gemini')).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    expect(refusalFor(429, 401, parsed, 'openai').status).toBe(429); // status_code_mapping turned the 401 into something else
  });

  it('lets auto-disable act on a key the upstream calls invalid, whatever its status', () => {
    expect(disablesChannel({ status: 400, code: 'INVALID_ARGUMENT', type: 'INVALID_ARGUMENT', message: 'API key not valid.', credentials: true }, '')).toBe(true);
    expect(disablesChannel({ status: 400, code: 'INVALID_ARGUMENT', type: 'INVALID_ARGUMENT', message: 'bad field' }, '')).toBe(false);
  });
});
