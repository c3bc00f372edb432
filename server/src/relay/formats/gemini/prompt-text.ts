import type { ClientCall } from '../../types.js';
import { camelCaseFields } from './field-names.js';
import { isJson, listOf, visitJson, type TextVisitor } from '../prompt-text.js';

/** One part: text, a function call (name and arguments) or response, code to run and its output. Inline data and files are not text. */
function visitGeminiPart(part: unknown, visit: TextVisitor): void {
  if (!isJson(part)) return;
  if (typeof part.text === 'string') visit(part.text);
  if (part.functionCall !== undefined) visitJson(part.functionCall, visit);
  if (part.functionResponse !== undefined) visitJson(part.functionResponse, visit);
  if (isJson(part.executableCode) && typeof part.executableCode.code === 'string') visit(part.executableCode.code);
  if (isJson(part.codeExecutionResult) && typeof part.codeExecutionResult.output === 'string') visit(part.codeExecutionResult.output);
}

/** A Content's parts (a single part, too). */
function visitParts(content: unknown, visit: TextVisitor): void {
  if (!isJson(content)) return;
  const { parts } = content;
  if (Array.isArray(parts)) for (const part of parts) visitGeminiPart(part, visit);
  else visitGeminiPart(parts, visit);
}

/**
 * The contents' parts and the system instruction, the tool declarations and the response schema; for embeddings,
 * the content(s) to embed and their titles. Field names may come in either spelling (system_instruction).
 */
export function geminiPromptTexts(call: ClientCall, visit: TextVisitor): void {
  if (!call.json) return;
  const body = camelCaseFields(call.json);
  if (call.mode === 'embeddings') {
    for (const request of [body, ...listOf(body.requests)]) {
      if (!isJson(request)) continue;
      if (typeof request.title === 'string') visit(request.title);
      visitParts(request.content, visit);
    }
    return;
  }
  visitParts(body.systemInstruction, visit);
  for (const content of listOf(body.contents)) visitParts(content, visit);
  visitJson(body.tools, visit);
  const generation = body.generationConfig;
  if (isJson(generation)) {
    visitJson(generation.responseSchema, visit);
    visitJson(generation.responseJsonSchema, visit);
  }
}
