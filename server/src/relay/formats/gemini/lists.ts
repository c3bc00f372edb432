/*
 * Google's JSON mapping takes a single value where a list is expected (`"parts": {"text": "hi"}`, as in Google's own
 * system-instruction examples). After the body check has passed, these make such values one-element lists in the
 * parsed body, so conversions and counts only ever meet lists. The bytes a Gemini channel receives are untouched.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value of a repeated field as a list (in place), under whichever spelling the client used. */
function listAt(owner: Json, camel: string, snake: string): unknown[] {
  let out: unknown[] = [];
  for (const name of camel === snake ? [camel] : [camel, snake]) {
    const v = owner[name];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) owner[name] = [v];
    out = owner[name] as unknown[];
  }
  return out;
}

function content(c: unknown): void {
  if (isObject(c)) listAt(c, 'parts', 'parts');
}

function objectAt(owner: Json, camel: string, snake: string): Json[] {
  return [owner[camel], owner[snake]].filter(isObject);
}

/** A generateContent body (also inside countTokens). */
export function listsOfGenerate(body: Json): void {
  for (const c of listAt(body, 'contents', 'contents')) content(c);
  for (const s of objectAt(body, 'systemInstruction', 'system_instruction')) content(s);
  for (const t of listAt(body, 'tools', 'tools')) if (isObject(t)) listAt(t, 'functionDeclarations', 'function_declarations');
  listAt(body, 'safetySettings', 'safety_settings');
  for (const g of objectAt(body, 'generationConfig', 'generation_config')) {
    listAt(g, 'stopSequences', 'stop_sequences');
    listAt(g, 'responseModalities', 'response_modalities');
  }
  for (const tc of objectAt(body, 'toolConfig', 'tool_config')) {
    for (const fc of objectAt(tc, 'functionCallingConfig', 'function_calling_config')) listAt(fc, 'allowedFunctionNames', 'allowed_function_names');
  }
}

export function listsOfCountTokens(body: Json): void {
  listsOfGenerate(body);
  for (const inner of objectAt(body, 'generateContentRequest', 'generate_content_request')) listsOfGenerate(inner);
}

export function listsOfEmbed(body: Json): void {
  content(body.content);
}

export function listsOfBatchEmbed(body: Json): void {
  for (const r of listAt(body, 'requests', 'requests')) if (isObject(r)) content(r.content);
}
