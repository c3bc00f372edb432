import { describe, expect, it } from 'vitest';
import { withSystemPrompt } from './system-prompt.js';

describe("a channel's system prompt in each client format", () => {
  const user = { role: 'user', content: 'hi' };

  it('OpenAI: a first system message, or in front of the existing one (text or parts) only with override', () => {
    expect(withSystemPrompt('openai', { messages: [user] }, 'P', false).messages).toEqual([{ role: 'system', content: 'P' }, user]);
    const withDev = { messages: [{ role: 'developer', content: 'mine' }, user] };
    expect(withSystemPrompt('openai', withDev, 'P', false)).toBe(withDev);
    expect((withSystemPrompt('openai', withDev, 'P', true).messages as unknown[])[0]).toEqual({ role: 'developer', content: 'P\nmine' });
    const parts = { messages: [{ role: 'system', content: [{ type: 'text', text: 'mine' }] }] };
    expect((withSystemPrompt('openai', parts, 'P', true).messages as unknown[])[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'P' },
        { type: 'text', text: 'mine' },
      ],
    });
    expect(withDev.messages[0].content).toBe('mine');
  });

  it('Claude: system set when absent, joined or prepended as a block with override', () => {
    expect(withSystemPrompt('claude', { messages: [user] }, 'P', false).system).toBe('P');
    expect(withSystemPrompt('claude', { system: 'mine' }, 'P', false).system).toBe('mine');
    expect(withSystemPrompt('claude', { system: 'mine' }, 'P', true).system).toBe('P\nmine');
    expect(withSystemPrompt('claude', { system: [{ type: 'text', text: 'mine' }] }, 'P', true).system).toEqual([
      { type: 'text', text: 'P' },
      { type: 'text', text: 'mine' },
    ]);
  });

  it('Gemini and Responses: systemInstruction and instructions', () => {
    expect(withSystemPrompt('gemini', { contents: [] }, 'P', false).systemInstruction).toEqual({ parts: [{ text: 'P' }] });
    expect(withSystemPrompt('gemini', { system_instruction: { parts: [{ text: 'mine' }] } }, 'P', true).system_instruction).toEqual({
      parts: [{ text: 'P' }, { text: 'mine' }],
    });
    expect(withSystemPrompt('responses', { input: 'hi' }, 'P', false).instructions).toBe('P');
    expect(withSystemPrompt('responses', { instructions: 'mine' }, 'P', false).instructions).toBe('mine');
    expect(withSystemPrompt('responses', { instructions: 'mine' }, 'P', true).instructions).toBe('P\nmine');
  });
});
