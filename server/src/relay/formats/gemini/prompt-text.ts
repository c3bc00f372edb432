import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitContent, type TextVisitor } from '../prompt-text.js';

const visitParts = (content: unknown, visit: TextVisitor) => {
  if (isJson(content)) visitContent(content.parts, visit);
};

/** Text parts of the contents and the system instruction; of the content(s) to embed for embeddings. */
export function geminiPromptTexts(call: ClientCall, visit: TextVisitor): void {
  const body = call.json;
  if (!body) return;
  if (call.mode === 'embeddings') {
    visitParts(body.content, visit);
    for (const request of listOf(body.requests)) if (isJson(request)) visitParts(request.content, visit);
    return;
  }
  visitParts(body.systemInstruction ?? body.system_instruction, visit);
  for (const content of listOf(body.contents)) visitParts(content, visit);
}
