import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitContent, type TextVisitor } from '../prompt-text.js';

/** The instructions, and the input: a string, or its message items' text and function call outputs. */
export function responsesPromptTexts(call: ClientCall, visit: TextVisitor): void {
  const body = call.json;
  if (!body) return;
  if (typeof body.instructions === 'string') visit(body.instructions);
  if (typeof body.input === 'string') return visit(body.input);
  for (const item of listOf(body.input)) {
    if (!isJson(item)) continue;
    if (item.type === undefined || item.type === 'message') visitContent(item.content, visit);
    else if (item.type === 'function_call_output') visitContent(item.output, visit);
  }
}
