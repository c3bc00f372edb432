/*
 * The text a client sends upstream in its request, read straight from the parsed body of each format (no
 * conversion), for the sensitive-word check: messages of every role, system prompts, tool definitions, tool calls'
 * arguments and tool results, structured-output schemas, and each mode's own inputs (image prompts, speech input,
 * rerank queries and documents). Not text: images, audio, files, ids, model names, signed thinking.
 */

export type Json = Record<string, unknown>;

/** Called once per piece of text, in body order. */
export type TextVisitor = (text: string) => void;

export const isJson = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The field as a list to walk (a missing or non-list value walks nothing). */
export const listOf = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** Part types that carry text in the formats served (Gemini parts have no type). */
const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/** A text part ({type?: text, text}) or a refusal part; other parts (images, audio, files) are skipped. */
export function visitPart(part: unknown, visit: TextVisitor): void {
  if (typeof part === 'string') visit(part);
  else if (!isJson(part)) return;
  else if (typeof part.text === 'string' && (part.type === undefined || TEXT_PARTS.has(part.type as string))) visit(part.text);
  else if (part.type === 'refusal' && typeof part.refusal === 'string') visit(part.refusal);
}

/** Content as the formats write it: a string, a list of strings and text parts, or one part. */
export function visitContent(content: unknown, visit: TextVisitor): void {
  if (typeof content === 'string') visit(content);
  else if (Array.isArray(content)) for (const part of content) visitPart(part, visit);
  else visitPart(content, visit);
}

/**
 * Every string in a free-form JSON value (a tool definition and its schema, a tool call's input, a function's
 * result): the values and the object keys, which a model reads as well (a schema's property names). Walked with a
 * list rather than recursion, so no nesting depth a body can have overflows the stack.
 */
export function visitJson(value: unknown, visit: TextVisitor): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') visit(v);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) pending.push(v[i]);
    else if (isJson(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) pending.push(v[keys[i]], keys[i]);
    }
  }
}

/**
 * A tool call's arguments as OpenAI writes them, a JSON document in a string (or, from some clients, the object).
 * Read as written unless it has escapes: then as the model reads it, decoded (`\u0074` is `t`), so an escape
 * neither hides a word nor makes one (`"\nsfw"` holds no `nsfw`).
 */
export function visitArguments(args: unknown, visit: TextVisitor): void {
  if (typeof args !== 'string') return visitJson(args, visit);
  if (!args.includes('\\')) return visit(args);
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return visit(args);
  }
  visitJson(parsed, visit);
}
