import { createHash } from 'node:crypto';

/*
 * Mistral accepts only tool call ids of nine letters and digits, and refuses a conversation whose history carries
 * another provider's ids (call_...). Such ids are replaced by nine characters derived from them, so an assistant
 * turn's tool call and the tool answer that refers to it still match, in this request and in the next one.
 */

const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function mistralToolCallId(id: string): string {
  if (MISTRAL_ID.test(id)) return id;
  const digest = createHash('sha256').update(id).digest();
  let out = '';
  for (let i = 0; i < 9; i++) out += ALPHABET[digest[i] % ALPHABET.length];
  return out;
}

type Message = Record<string, unknown> & { tool_calls?: unknown; tool_call_id?: unknown };

/** The messages with every tool call id in Mistral's form (messages that need no change are kept as they are). */
export function withMistralToolIds(messages: unknown[]): unknown[] {
  return messages.map((raw) => {
    if (!raw || typeof raw !== 'object') return raw;
    const m = raw as Message;
    let out: Message | null = null;
    if (typeof m.tool_call_id === 'string' && m.tool_call_id !== mistralToolCallId(m.tool_call_id)) {
      out = { ...m, tool_call_id: mistralToolCallId(m.tool_call_id) };
    }
    if (Array.isArray(m.tool_calls)) {
      const calls = m.tool_calls.map((c: unknown) => {
        const id = (c as { id?: unknown } | null)?.id;
        return typeof id === 'string' && id !== mistralToolCallId(id) ? { ...(c as object), id: mistralToolCallId(id) } : c;
      });
      if (calls.some((c, i) => c !== (m.tool_calls as unknown[])[i])) out = { ...(out ?? m), tool_calls: calls };
    }
    return out ?? m;
  });
}
