import type { ChatMessage, ChatRequest, ContentPart, ToolCall, ToolChoice, ToolDefinition } from '../openai/chat.js';
import { RelayError } from '../../errors.js';
import { checkClientFields } from '../client-fields.js';
import { camelCaseFields } from './field-names.js';
import { GEMINI_CLIENT_FIELDS } from './fields.js';
import type { GeminiContent, GeminiGenerationConfig, GeminiPart, GeminiRequest, GeminiTool, GeminiToolConfig } from './types.js';

/**
 * A Gemini generateContent request as the canonical ChatRequest, for a Gemini client calling through a channel that
 * speaks another format. Gemini function calls usually carry no id, so ids are generated from their position
 * (call_<turn>_<n>) and each functionResponse is paired with the earliest unanswered call of the same name.
 */
export function geminiToChat(body: GeminiRequest, model: string, stream: boolean, dropped?: string[]): ChatRequest {
  const req = camelCaseFields(body);
  const hints = checkClientFields(req as unknown as Record<string, unknown>, GEMINI_CLIENT_FIELDS, 'Gemini');
  if (dropped) dropped.push(...hints);
  const messages: ChatMessage[] = [];
  const system = textOf(req.systemInstruction?.parts ?? []);
  if (system) messages.push({ role: 'system', content: system });

  const pending: Array<{ id: string; name: string }> = [];
  (req.contents ?? []).forEach((content, turn) => {
    if (content.role === 'model') messages.push(modelMessage(content, turn, pending));
    else messages.push(...userMessages(content, turn, pending));
  });

  const out: ChatRequest = { model, messages };
  if (stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  const tools = toolsOf(req.tools ?? [], dropped);
  if (tools.length > 0) out.tools = tools;
  const choice = toolChoiceOf(req.toolConfig);
  if (choice) out.tool_choice = choice;
  applyGenerationConfig(out, req.generationConfig);
  return out;
}

function textOf(parts: GeminiPart[]): string {
  return parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
}

function modelMessage(content: GeminiContent, turn: number, pending: Array<{ id: string; name: string }>): ChatMessage {
  let text = '';
  let reasoning = '';
  let signature = '';
  const calls: ToolCall[] = [];
  for (const part of content.parts ?? []) {
    if (part.functionCall) {
      const id = part.functionCall.id ?? `call_${turn}_${calls.length}`;
      pending.push({ id, name: part.functionCall.name });
      calls.push({ id, type: 'function', function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) } });
    } else if (typeof part.text === 'string') {
      if (part.thought) reasoning += part.text;
      else text += part.text;
    } else if (!part.thoughtSignature) {
      refuseUnknownPart(part);
    }
    if (part.thoughtSignature && !signature) signature = part.thoughtSignature;
  }
  const msg: ChatMessage = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
  if (reasoning) msg.reasoning_content = reasoning;
  if (signature) msg.reasoning_signature = signature;
  if (calls.length > 0) msg.tool_calls = calls;
  return msg;
}

function userMessages(content: GeminiContent, turn: number, pending: Array<{ id: string; name: string }>): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const part of content.parts ?? []) {
    if (part.functionResponse) {
      const fr = part.functionResponse;
      const at = fr.id ? pending.findIndex((p) => p.id === fr.id) : pending.findIndex((p) => p.name === fr.name);
      const id = at >= 0 ? pending.splice(at, 1)[0].id : (fr.id ?? `call_${turn}_${out.length}`);
      out.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(fr.response ?? {}) });
    } else if (typeof part.text === 'string') {
      parts.push({ type: 'text', text: part.text });
    } else if (part.inlineData) {
      parts.push(mediaPart(part.inlineData.mimeType, `data:${part.inlineData.mimeType};base64,${part.inlineData.data}`, part.inlineData.data));
    } else if (part.fileData) {
      parts.push(mediaPart(part.fileData.mimeType ?? '', part.fileData.fileUri));
    } else {
      refuseUnknownPart(part);
    }
  }
  if (parts.length > 0) {
    const allText = parts.every((p) => p.type === 'text');
    out.push({ role: 'user', content: allText ? parts.map((p) => (p as { text: string }).text).join('') : parts });
  }
  return out;
}

/** Images become image_url parts (the one media type every chat server takes); audio and documents their own. */
function mediaPart(mimeType: string, url: string, base64?: string): ContentPart {
  if (base64 !== undefined && mimeType.startsWith('audio/')) {
    return { type: 'input_audio', input_audio: { data: base64, format: mimeType.slice(6).replace('mpeg', 'mp3') } };
  }
  if (mimeType === '' || mimeType.startsWith('image/') || base64 === undefined) return { type: 'image_url', image_url: { url } };
  return { type: 'file', file: { file_data: url } };
}

const refuse = (message: string) => new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');

/** Parts that only Gemini can act on (code execution results, media it generated) have no meaning elsewhere. */
function refuseUnknownPart(part: GeminiPart): void {
  const kinds = Object.keys(part).filter((k) => k !== 'thought' && k !== 'thoughtSignature');
  if (kinds.length > 0) throw refuse(`本渠道不支持 Gemini 内容部分 ${kinds.join(', ')}`);
}

/**
 * Function declarations as tools. Gemini's built-in tools (googleSearch, codeExecution, urlContext…) run only on
 * Gemini: they are left out of the offer (the model answers without them), named in `dropped`.
 */
function toolsOf(tools: GeminiTool[], dropped: string[] | undefined): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const tool of tools) {
    for (const key of Object.keys(tool ?? {})) {
      const name = `tools[].${key}`;
      if (key !== 'functionDeclarations' && dropped && !dropped.includes(name)) dropped.push(name);
    }
    for (const fn of tool.functionDeclarations ?? []) {
      const def: ToolDefinition = { type: 'function', function: { name: fn.name } };
      if (fn.description) def.function.description = fn.description;
      const given = fn.parametersJsonSchema ?? fn.parameters;
      const params = given ? lowerTypes(given) : undefined;
      def.function.parameters = (params as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} };
      out.push(def);
    }
  }
  return out;
}

/** Gemini's OpenAPI schemas may spell types in capitals (OBJECT, STRING); JSON Schema wants them lower-case. */
export function lowerTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerTypes);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') out.type = typeof value === 'string' ? value.toLowerCase() : Array.isArray(value) ? value.map((t) => (typeof t === 'string' ? t.toLowerCase() : t)) : value;
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerTypes(v)]));
    } else if (SUBSCHEMAS.has(key)) out[key] = lowerTypes(value);
    else out[key] = value;
  }
  return out;
}

/** Where a JSON Schema holds schemas by name, and where it holds a schema or a list of them. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
const SUBSCHEMAS = new Set(['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'not', 'additionalProperties']);

function toolChoiceOf(config: GeminiToolConfig | undefined): ToolChoice | undefined {
  const fc = config?.functionCallingConfig;
  switch (fc?.mode) {
    case 'NONE':
      return 'none';
    case 'ANY': {
      const names = fc.allowedFunctionNames ?? [];
      return names.length === 1 ? { type: 'function', function: { name: names[0] } } : 'required';
    }
    case 'AUTO':
    case 'VALIDATED':
      return 'auto';
    default:
      return undefined;
  }
}

function applyGenerationConfig(out: ChatRequest, gc: GeminiGenerationConfig | undefined): void {
  if (!gc) return;
  if (typeof gc.maxOutputTokens === 'number') out.max_tokens = gc.maxOutputTokens;
  if (typeof gc.temperature === 'number') out.temperature = gc.temperature;
  if (typeof gc.topP === 'number') out.top_p = gc.topP;
  if (typeof gc.topK === 'number') out.top_k = gc.topK;
  if (gc.responseLogprobs === true) {
    out.logprobs = true;
    if (typeof gc.logprobs === 'number') out.top_logprobs = gc.logprobs;
  }
  if (gc.stopSequences && gc.stopSequences.length > 0) out.stop = gc.stopSequences;
  if (typeof gc.candidateCount === 'number' && gc.candidateCount > 1) out.n = gc.candidateCount;
  if (typeof gc.presencePenalty === 'number') out.presence_penalty = gc.presencePenalty;
  if (typeof gc.frequencyPenalty === 'number') out.frequency_penalty = gc.frequencyPenalty;
  if (typeof gc.seed === 'number') out.seed = gc.seed;
  if (gc.responseMimeType !== undefined && gc.responseMimeType !== 'text/plain' && gc.responseMimeType !== 'application/json') {
    throw refuse(`本渠道不支持 responseMimeType ${String(gc.responseMimeType)}`);
  }
  if (gc.responseMimeType === 'application/json') {
    // Gemini CLI sends responseJsonSchema with Gemini's upper-case type names too ("OBJECT"); JSON Schema's are lower.
    const given = gc.responseJsonSchema ?? gc.responseSchema;
    const schema = given ? (lowerTypes(given) as Record<string, unknown>) : undefined;
    out.response_format = schema ? { type: 'json_schema', json_schema: { name: 'response', schema } } : { type: 'json_object' };
  }
  const effort = effortOf(gc.thinkingConfig?.thinkingBudget, gc.thinkingConfig?.thinkingLevel);
  if (effort) out.reasoning_effort = effort;
}

/** A token budget has no exact OpenAI equivalent: map it onto the three effort levels (0 = thinking off = unset). */
function effortOf(budget: number | undefined, level: string | undefined): ChatRequest['reasoning_effort'] {
  if (typeof level === 'string') {
    const l = level.toLowerCase();
    if (l === 'low' || l === 'minimal') return 'low';
    if (l === 'medium') return 'medium';
    if (l === 'high') return 'high';
  }
  if (typeof budget !== 'number' || budget === 0) return undefined;
  if (budget < 0) return 'medium'; // -1: dynamic thinking
  if (budget <= 2048) return 'low';
  if (budget <= 12288) return 'medium';
  return 'high';
}
