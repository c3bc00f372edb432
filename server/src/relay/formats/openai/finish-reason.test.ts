import { describe, expect, it } from 'vitest';
import { normalizeFinishReason } from './finish-reason.js';

describe('finish reasons', () => {
  it('normalise every provider to stop, length, tool_calls or content_filter', () => {
    expect(normalizeFinishReason('end_turn')).toBe('stop');
    expect(normalizeFinishReason('max_tokens')).toBe('length');
    expect(normalizeFinishReason('tool_use')).toBe('tool_calls');
    expect(normalizeFinishReason('MAX_TOKENS')).toBe('length');
    expect(normalizeFinishReason('SAFETY')).toBe('content_filter');
    expect(normalizeFinishReason('something_new')).toBe('stop');
    expect(normalizeFinishReason(null)).toBeNull();
  });
});
