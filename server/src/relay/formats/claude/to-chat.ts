import { RelayError } from '../../errors.js';
import { checkClientFields } from '../client-fields.js';
import { CLAUDE_CLIENT_FIELDS } from './fields.js';
import type { ChatMessage, ChatRequest, ContentPart, ToolChoice, ToolDefinition } from '../openai/chat.js';
import type {
  ClaudeContentBlock,
  ClaudeDocumentBlock,
  ClaudeImageSource,
  ClaudeRequest,
  ClaudeThinkingConfig,
  ClaudeTool,
  ClaudeToolChoice,
  ClaudeToolResultBlock,
} from './types.js';

/**
 * Thinking budgets at or above these map to medium / high effort. OpenAI-style upstreams only know three levels, so
 * the budget is an approximation: under 4k tokens of thought is a light think, 16k and more a deep one.
 */
const MEDIUM_BUDGET = 4096;
const HIGH_BUDGET = 16384;

/**
 * A Claude Messages request as the canonical ChatRequest (a Claude client calling through a non-Claude channel).
 * The hint fields it leaves out are added to `dropped`.
 */
export function claudeToChat(req: ClaudeRequest, dropped?: string[]): ChatRequest {
  const hints = checkClientFields(req, CLAUDE_CLIENT_FIELDS, 'Claude');
  if (dropped) dropped.push(...hints);
  const messages: ChatMessage[] = [];
  const system = systemText(req.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const m of req.messages ?? []) {
    if (m.role === 'assistant') messages.push(assistantMessage(m.content));
    // Claude Code sends reminders as system messages inside `messages` (the API takes them): they stay system.
    else if ((m.role as string) === 'system') messages.push({ role: 'system', content: systemText(m.content) });
    else messages.push(...userMessages(m.content));
  }

  const out: ChatRequest = { model: req.model, messages };
  if (typeof req.max_tokens === 'number') out.max_tokens = req.max_tokens;
  if (typeof req.temperature === 'number') out.temperature = req.temperature;
  if (typeof req.top_p === 'number') out.top_p = req.top_p;
  if (typeof req.top_k === 'number') out.top_k = req.top_k;
  if (req.stop_sequences && req.stop_sequences.length > 0) out.stop = req.stop_sequences;
  if (req.stream) {
    out.stream = true;
    // The Claude stream ends with usage in message_delta, so it must be asked for.
    out.stream_options = { include_usage: true };
  }
  const tools = toolsOf(req, dropped);
  if (tools.length > 0) out.tools = tools;
  if (req.tool_choice) {
    out.tool_choice = toolChoice(req.tool_choice);
    if ('disable_parallel_tool_use' in req.tool_choice && req.tool_choice.disable_parallel_tool_use) {
      out.parallel_tool_calls = false;
    }
  }
  const outputConfig = (req.output_config ?? {}) as { format?: unknown; effort?: unknown };
  const effort = reasoningEffort(req.thinking) ?? EFFORT[String(outputConfig.effort)];
  if (effort) out.reasoning_effort = effort;
  const format = outputConfig.format ?? req.output_format;
  if (format !== undefined && format !== null) out.response_format = responseFormat(format);
  const user = req.metadata?.user_id;
  if (typeof user === 'string' && user) out.user = user;
  return out;
}

function systemText(system: ClaudeRequest['system'] | ClaudeContentBlock[]): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return '';
  return (system as Array<{ type: string; text?: string }>)
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

export function imageUrl(source: ClaudeImageSource): string {
  return source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
}

const refuse = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

/** A text, image or document block as a chat content part; any other block has no equivalent and is refused. */
function contentPart(b: ClaudeContentBlock): ContentPart {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image': {
      const kind = (b.source as { type?: unknown } | undefined)?.type;
      if (kind !== 'base64' && kind !== 'url') throw refuse(`本渠道不支持 ${String(kind)} 来源的图片`);
      return { type: 'image_url', image_url: { url: imageUrl(b.source) } };
    }
    case 'document':
      return documentPart(b);
    default:
      throw refuse(`本渠道不支持内容块类型 ${String((b as { type?: unknown }).type)}`);
  }
}

/** A document as a file part: base64 PDFs and plain text travel as data URLs; URLs and Files API ids cannot. */
function documentPart(b: ClaudeDocumentBlock): ContentPart {
  const file: Record<string, unknown> = {};
  if (b.title) file.filename = b.title;
  const source = b.source as { type?: unknown; media_type?: unknown; data?: unknown };
  if (source?.type === 'base64' && typeof source.data === 'string') file.file_data = `data:${String(source.media_type)};base64,${source.data}`;
  else if (source?.type === 'text' && typeof source.data === 'string') file.file_data = `data:text/plain;base64,${Buffer.from(source.data, 'utf8').toString('base64')}`;
  else throw refuse(`本渠道不支持 ${String(source?.type)} 来源的文档，请以 base64 或纯文本发送`);
  return { type: 'file', file };
}

/** Text-only content becomes a plain string: many OpenAI-compatible servers reject part arrays. */
function simplify(parts: ContentPart[]): string | ContentPart[] {
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => (p as { text: string }).text).join('\n');
  return parts;
}

/**
 * A user turn. tool_result blocks become tool messages placed first (OpenAI wants them right after the assistant's
 * tool_calls); images inside a tool result cannot ride on a tool message, so they go in the user message after.
 */
function userMessages(content: string | ClaudeContentBlock[]): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const tools: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const b of content) {
    if (b.type === 'tool_result') {
      const result = toolResult(b);
      tools.push({ role: 'tool', tool_call_id: b.tool_use_id, content: result.text });
      parts.push(...result.images);
    } else {
      parts.push(contentPart(b));
    }
  }
  if (parts.length > 0) tools.push({ role: 'user', content: simplify(parts) });
  return tools;
}

function toolResult(b: ClaudeToolResultBlock): { text: string; images: ContentPart[] } {
  if (typeof b.content === 'string') return { text: b.content, images: [] };
  const parts = (b.content ?? []).map(contentPart);
  const text = parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('\n');
  return { text, images: parts.filter((p) => p.type !== 'text') };
}

function assistantMessage(content: string | ClaudeContentBlock[]): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  let reasoning = '';
  const msg: ChatMessage = { role: 'assistant', content: null };
  let signature = '';
  for (const b of content) {
    if (b.type === 'text') text += b.text;
    else if (b.type === 'thinking') {
      reasoning += b.thinking;
      if (b.signature) signature = b.signature;
    } else if (b.type === 'tool_use') {
      (msg.tool_calls ??= []).push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
    } else if (b.type !== 'redacted_thinking') {
      // Redacted thinking is Anthropic's encrypted reasoning: no other model can read it, so it has no meaning there.
      throw refuse(`本渠道不支持助手内容块类型 ${String((b as { type?: unknown }).type)}`);
    }
  }
  if (text || !msg.tool_calls) msg.content = text;
  if (reasoning) msg.reasoning_content = reasoning;
  // The thinking's signature, so a reply can carry it back (Gemini's thought signature travels this way).
  if (signature) msg.reasoning_signature = signature;
  return msg;
}

/**
 * Server tools (typed, schema-less: web_search, code_execution…) run on Anthropic's side: elsewhere they are left out
 * of the offer (the model answers without them) and named in `dropped`, unless tool_choice forces one (refused).
 */
function toolsOf(req: ClaudeRequest, dropped: string[] | undefined): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  const forced = req.tool_choice?.type === 'tool' ? req.tool_choice.name : null;
  for (const t of req.tools ?? []) {
    if (t.input_schema !== undefined && (t.type === undefined || t.type === 'custom')) {
      out.push(toFunction(t));
      continue;
    }
    if (forced !== null && t.name === forced) throw refuse(`本渠道无法运行 Claude 服务端工具 ${String(t.type ?? t.name)}，tool_choice 却要求使用它`);
    const name = `tools[].type=${String(t.type ?? t.name)}`;
    if (dropped && !dropped.includes(name)) dropped.push(name);
  }
  return out;
}

function toFunction(t: ClaudeTool): ToolDefinition {
  const fn: ToolDefinition['function'] = { name: t.name, parameters: t.input_schema };
  if (t.description) fn.description = t.description;
  return { type: 'function', function: fn };
}

function toolChoice(c: ClaudeToolChoice): ToolChoice {
  switch (c.type) {
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: c.name } };
    case 'none':
      return 'none';
    default:
      return 'auto';
  }
}

/** output_config.effort levels in chat's three. */
const EFFORT: Record<string, ChatRequest['reasoning_effort']> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

/** Claude's structured-output format (output_config.format, or the beta's output_format) as response_format. */
function responseFormat(format: unknown): ChatRequest['response_format'] {
  const f = format as { type?: unknown; schema?: unknown };
  if (f?.type !== 'json_schema' || !f.schema || typeof f.schema !== 'object') {
    throw new RelayError(400, 'output_config.format 只支持 {"type":"json_schema","schema":{...}}', 'invalid_request_error', 'invalid_request_error');
  }
  return { type: 'json_schema', json_schema: { name: 'output', schema: f.schema as Record<string, unknown>, strict: true } };
}

function reasoningEffort(t: ClaudeThinkingConfig | undefined): ChatRequest['reasoning_effort'] {
  if (!t) return undefined;
  if (t.type === 'adaptive') return 'medium';
  if (t.type !== 'enabled') return undefined;
  if (t.budget_tokens >= HIGH_BUDGET) return 'high';
  return t.budget_tokens >= MEDIUM_BUDGET ? 'medium' : 'low';
}
