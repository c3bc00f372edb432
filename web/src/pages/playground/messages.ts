import { t } from '../../lib/i18n';

/** A message of the playground conversation (spec §3: role, id, createAt, content, status). */
export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  role: 'user' | 'assistant';
  id: string;
  /** Milliseconds since the epoch. */
  createAt: number;
  content: string;
  /** The model's reasoning, when it streams one apart from the answer. */
  reasoning?: string;
  status: MessageStatus;
}

/** Ids 2 and 3 belong to the sample exchange; new messages count on from 4 (spec §9). */
let nextId = 4;

export function newMessageId(): string {
  return String(nextId++);
}

/** The sample exchange a new playground opens with. */
export function sampleMessages(): ChatMessage[] {
  return [
    { role: 'user', id: '2', createAt: 1715676751919, content: t('你好'), status: 'complete' },
    { role: 'assistant', id: '3', createAt: 1715676751919, content: t('你好，请问有什么可以帮助您的吗？'), status: 'complete' },
  ];
}

export function userMessage(content: string): ChatMessage {
  return { role: 'user', id: newMessageId(), createAt: Date.now(), content, status: 'complete' };
}

export function pendingReply(): ChatMessage {
  return { role: 'assistant', id: newMessageId(), createAt: Date.now(), content: '', status: 'loading' };
}

/** What is sent upstream of a conversation: its user and answered assistant turns, failed replies left out. */
export function conversationTurns(messages: readonly ChatMessage[]): Array<{ role: string; content: string }> {
  return messages.filter((m) => m.status !== 'error' && m.status !== 'loading' && m.content !== '').map((m) => ({ role: m.role, content: m.content }));
}
