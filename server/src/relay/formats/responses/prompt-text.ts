import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitArguments, visitContent, visitJson, type TextVisitor } from '../prompt-text.js';

/** One input item: a message, a function or custom tool call (name and arguments) and its output. Reasoning and references are not read. */
function visitItem(item: Record<string, unknown>, visit: TextVisitor): void {
  switch (item.type) {
    case undefined:
    case 'message':
      return visitContent(item.content, visit);
    case 'function_call':
    case 'custom_tool_call':
      if (typeof item.name === 'string') visit(item.name);
      return visitArguments(item.arguments ?? item.input, visit);
    case 'function_call_output':
    case 'custom_tool_call_output':
      return visitContent(item.output, visit);
    default:
      return;
  }
}

/**
 * The instructions; the input, a string or items; the tool definitions, the structured-output format and a
 * prompt template's variables.
 */
export function responsesPromptTexts(call: ClientCall, visit: TextVisitor): void {
  const body = call.json;
  if (!body) return;
  if (typeof body.instructions === 'string') visit(body.instructions);
  if (typeof body.input === 'string') visit(body.input);
  for (const item of listOf(body.input)) if (isJson(item)) visitItem(item, visit);
  visitJson(body.tools, visit);
  if (isJson(body.text)) visitJson(body.text.format, visit);
  if (isJson(body.prompt)) visitJson(body.prompt.variables, visit);
}
