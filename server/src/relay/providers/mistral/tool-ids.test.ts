import { describe, expect, it } from 'vitest';
import { mistralToolCallId, withMistralToolIds } from './tool-ids.js';

describe('Mistral tool call ids', () => {
  it('keeps ids of nine letters and digits and derives one, always the same, from any other', () => {
    expect(mistralToolCallId('Ab3dE6gH9')).toBe('Ab3dE6gH9');
    const derived = mistralToolCallId('call_0123456789abcdef');
    expect(derived).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(mistralToolCallId('call_0123456789abcdef')).toBe(derived);
    expect(mistralToolCallId('call_0123456789abcdeg')).not.toBe(derived);
  });

  it("rewrites an assistant's tool calls and the tool answers that refer to them alike, and leaves other messages as they are", () => {
    const user = { role: 'user', content: 'hi' };
    const out = withMistralToolIds([
      user,
      { role: 'assistant', tool_calls: [{ id: 'toolu_01A', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'toolu_01A', content: 'ok' },
    ]) as Array<{ tool_calls?: Array<{ id: string; function: unknown }>; tool_call_id?: string }>;
    expect(out[0]).toBe(user);
    expect(out[1].tool_calls![0]).toMatchObject({ id: mistralToolCallId('toolu_01A'), function: { name: 'f', arguments: '{}' } });
    expect(out[2].tool_call_id).toBe(out[1].tool_calls![0].id);
  });
});
