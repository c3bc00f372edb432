import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitContent, type TextVisitor } from '../prompt-text.js';

/** The system prompt and the messages' text blocks, tool results' text included. */
export function claudePromptTexts(call: ClientCall, visit: TextVisitor): void {
  const body = call.json;
  if (!body) return;
  visitContent(body.system, visit);
  for (const message of listOf(body.messages)) {
    if (!isJson(message)) continue;
    const { content } = message;
    if (!Array.isArray(content)) {
      visitContent(content, visit);
      continue;
    }
    for (const block of content) {
      if (isJson(block) && block.type === 'tool_result') visitContent(block.content, visit);
      else visitContent(block, visit);
    }
  }
}
