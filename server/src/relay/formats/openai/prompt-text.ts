import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitContent, type TextVisitor } from '../prompt-text.js';

/** Chat messages (every role), completion prompts, embedding and moderation inputs; token-id inputs are not text. */
export function openAIPromptTexts(call: ClientCall, visit: TextVisitor): void {
  const body = call.json;
  if (!body) return;
  switch (call.mode) {
    case 'chat':
      for (const message of listOf(body.messages)) if (isJson(message)) visitContent(message.content, visit);
      return;
    case 'completions':
      return visitContent(body.prompt, visit);
    case 'embeddings':
    case 'moderations':
      return visitContent(body.input, visit);
    default:
      return;
  }
}
