import { describe, expect, it } from 'vitest';
import { conversationTurns, pendingReply, sampleMessages, userMessage, type ChatMessage } from './messages';

describe('playground messages', () => {
  it('opens with the sample exchange (ids 2 and 3) and numbers new messages from 4 on', () => {
    expect(sampleMessages().map((m) => [m.id, m.role, m.status])).toEqual([
      ['2', 'user', 'complete'],
      ['3', 'assistant', 'complete'],
    ]);
    const first = Number(userMessage('hi').id);
    expect(first).toBeGreaterThanOrEqual(4);
    expect(pendingReply()).toMatchObject({ id: String(first + 1), role: 'assistant', status: 'loading', content: '' });
  });

  it('sends back the conversation without failed, pending or empty replies', () => {
    const messages: ChatMessage[] = [
      ...sampleMessages(),
      { role: 'user', id: '10', createAt: 0, content: 'q1', status: 'complete' },
      { role: 'assistant', id: '11', createAt: 0, content: 'upstream exploded', status: 'error' },
      { role: 'assistant', id: '12', createAt: 0, content: '', status: 'complete' },
      { role: 'user', id: '13', createAt: 0, content: 'q2', status: 'complete' },
    ];
    expect(conversationTurns(messages)).toEqual([
      { role: 'user', content: '你好' },
      { role: 'assistant', content: '你好，请问有什么可以帮助您的吗？' },
      { role: 'user', content: 'q1' },
      { role: 'user', content: 'q2' },
    ]);
  });
});
