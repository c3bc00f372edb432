/*
 * The text a client wrote into its request, read straight from the parsed body of each format (no conversion), for
 * the sensitive-word check. Text only: images, audio, files and tool definitions are not read.
 */

export type Json = Record<string, unknown>;

/** Called once per piece of text, in body order. */
export type TextVisitor = (text: string) => void;

export const isJson = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The field as a list to walk (a missing or non-list value walks nothing). */
export const listOf = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** Part types that carry text in the formats served (Gemini parts have no type). */
const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/** A text part ({type?: text, text}); other parts (images, audio, files) are skipped. */
export function visitPart(part: unknown, visit: TextVisitor): void {
  if (typeof part === 'string') visit(part);
  else if (isJson(part) && typeof part.text === 'string' && (part.type === undefined || TEXT_PARTS.has(part.type as string))) visit(part.text);
}

/** Content as the formats write it: a string, a list of strings and text parts, or one part. */
export function visitContent(content: unknown, visit: TextVisitor): void {
  if (typeof content === 'string') visit(content);
  else if (Array.isArray(content)) for (const part of content) visitPart(part, visit);
  else visitPart(content, visit);
}
