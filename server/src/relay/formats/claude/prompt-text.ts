import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitContent, visitJson, visitPart, type TextVisitor } from '../prompt-text.js';

/** Blocks whose `input` is a call's arguments. */
const CALLS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * One content block: text; a tool call (its name and input); a tool result's content, which holds blocks itself;
 * a document's text, title and context; a search result's title and text. Images, signed thinking and other
 * blocks are not read.
 */
function visitBlock(block: unknown, visit: TextVisitor): void {
  if (!isJson(block)) return visitPart(block, visit);
  const { type } = block;
  if (typeof type === 'string' && CALLS.has(type)) {
    if (typeof block.name === 'string') visit(block.name);
    visitJson(block.input, visit);
  } else if (type === 'tool_result') visitBlocks(block.content, visit);
  else if (type === 'document' || type === 'search_result') {
    if (typeof block.title === 'string') visit(block.title);
    if (typeof block.context === 'string') visit(block.context);
    const source = block.source;
    if (isJson(source) && source.type === 'text' && typeof source.data === 'string') visit(source.data);
    else if (isJson(source) && source.type === 'content') visitBlocks(source.content, visit);
    if (type === 'search_result') visitBlocks(block.content, visit);
  } else visitPart(block, visit);
}

function visitBlocks(content: unknown, visit: TextVisitor): void {
  if (Array.isArray(content)) for (const block of content) visitBlock(block, visit);
  else if (isJson(content)) visitBlock(content, visit);
  else visitContent(content, visit);
}

/** The system prompt, the messages' blocks, the tool definitions and the structured-output schema. */
export function claudePromptTexts(call: ClientCall, visit: TextVisitor): void {
  const body = call.json;
  if (!body) return;
  visitBlocks(body.system, visit);
  for (const message of listOf(body.messages)) if (isJson(message)) visitBlocks(message.content, visit);
  visitJson(body.tools, visit);
  visitJson(isJson(body.output_config) ? body.output_config.format : undefined, visit);
  visitJson(body.output_format, visit);
}
