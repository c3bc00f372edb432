import type { ChatMessage } from '../formats/openai/chat.js';

/**
 * The text of a message that can only carry text upstream (system, assistant and tool turns on most native wires):
 * text parts joined, refusal parts (an earlier answer's refusal) skipped, any other part refused with `refuse`.
 */
export function textOnlyContent(content: ChatMessage['content'], refuse: (partType: string) => Error): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') text += part.text;
    else if (part.type !== 'refusal') throw refuse(part.type);
  }
  return text;
}
