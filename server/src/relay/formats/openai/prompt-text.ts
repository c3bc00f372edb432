import type { ClientCall } from '../../types.js';
import { isJson, listOf, visitArguments, visitContent, visitJson, type TextVisitor } from '../prompt-text.js';

/** A chat message: its content (text parts, a refusal), and an assistant's tool calls (names and arguments). */
function visitMessage(message: Record<string, unknown>, visit: TextVisitor): void {
  visitContent(message.content, visit);
  if (typeof message.refusal === 'string') visit(message.refusal);
  for (const call of listOf(message.tool_calls)) {
    if (!isJson(call)) continue;
    const fn = isJson(call.function) ? call.function : isJson(call.custom) ? call.custom : null;
    if (!fn) continue;
    if (typeof fn.name === 'string') visit(fn.name);
    visitArguments(fn.arguments ?? fn.input, visit);
  }
  const legacy = message.function_call;
  if (isJson(legacy)) {
    if (typeof legacy.name === 'string') visit(legacy.name);
    visitArguments(legacy.arguments, visit);
  }
}

/**
 * Chat messages (every role) with their tool calls, the tool (and legacy function) definitions, the structured-output
 * schema and predicted output; completion prompts and suffixes; embedding, moderation and rerank inputs; image
 * prompts; speech input and voice instructions; a transcription's prompt. Token-id inputs are not text.
 */
export function openAIPromptTexts(call: ClientCall, visit: TextVisitor): void {
  if (call.mode === 'transcriptions' || call.mode === 'translations') {
    const prompt = call.form?.get('prompt');
    if (typeof prompt === 'string') visit(prompt);
    return;
  }
  const body = call.json;
  if (!body) return;
  switch (call.mode) {
    case 'chat':
      for (const message of listOf(body.messages)) if (isJson(message)) visitMessage(message, visit);
      visitJson(body.tools, visit);
      visitJson(body.functions, visit);
      visitJson(body.response_format, visit);
      if (isJson(body.prediction)) visitContent(body.prediction.content, visit);
      return;
    case 'completions':
      visitContent(body.prompt, visit);
      if (typeof body.suffix === 'string') visit(body.suffix);
      return;
    case 'embeddings':
    case 'moderations':
      return visitContent(body.input, visit);
    case 'images':
      if (typeof body.prompt === 'string') visit(body.prompt);
      return;
    case 'speech':
      if (typeof body.input === 'string') visit(body.input);
      if (typeof body.instructions === 'string') visit(body.instructions);
      return;
    case 'rerank':
      if (typeof body.query === 'string') visit(body.query);
      return visitContent(body.documents, visit);
  }
}
