import type { ChatMessage, ChatRequest, ContentPart, ToolCall, ToolDefinition } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { textOnlyContent } from '../text-content.js';
import type { HunyuanContent, HunyuanMessage, HunyuanRequest, HunyuanTool, HunyuanToolCall } from './types.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A ChatRequest as Hunyuan's ChatCompletions body (any client through a Hunyuan channel). */
export function chatToHunyuanRequest(req: ChatRequest, model: string, stream: boolean): HunyuanRequest {
  const out: HunyuanRequest = { Model: model, Messages: (req.messages ?? []).map(toMessage), Stream: stream };
  if (isNum(req.temperature)) out.Temperature = req.temperature;
  if (isNum(req.top_p)) out.TopP = req.top_p;
  if (isNum(req.seed)) out.Seed = req.seed;
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (Array.isArray(stop) && stop.length > 0) out.Stop = stop;

  const tools = (req.tools ?? []).filter((t) => t.type === 'function').map(toTool);
  const choice = req.tool_choice;
  if (tools.length > 0) out.Tools = tools;
  if (choice === 'none' || choice === 'auto') {
    if (tools.length > 0) out.ToolChoice = choice;
  } else if (choice === 'required') {
    // Hunyuan can only force one named tool: with a single tool offered, requiring a call means calling it.
    if (tools.length !== 1) throw unsupported('混元只能强制调用指定的一个工具：tool_choice=required 时只能提供一个工具');
    out.ToolChoice = 'custom';
    out.CustomTool = tools[0];
  } else if (choice && typeof choice === 'object' && choice.function?.name) {
    const named = tools.find((t) => t.Function.Name === choice.function.name);
    if (!named) throw unsupported(`tool_choice 指定的工具 ${choice.function.name} 不在 tools 中`);
    out.ToolChoice = 'custom';
    out.CustomTool = named;
  }
  return out;
}

function toTool(t: ToolDefinition): HunyuanTool {
  const fn: HunyuanTool['Function'] = { Name: t.function.name, Parameters: JSON.stringify(t.function.parameters ?? { type: 'object', properties: {} }) };
  if (t.function.description) fn.Description = t.function.description;
  return { Type: 'function', Function: fn };
}

function toMessage(m: ChatMessage): HunyuanMessage {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { Role: 'system', Content: textOnly(m.content, 'system') };
    case 'user':
      return userMessage(m.content);
    case 'assistant': {
      const out: HunyuanMessage = { Role: 'assistant', Content: textOnly(m.content, 'assistant') };
      const calls = (m.tool_calls ?? []).filter((c) => c.type === 'function' || c.type === undefined).map(toCall);
      if (calls.length > 0) out.ToolCalls = calls;
      return out;
    }
    case 'tool':
      return { Role: 'tool', Content: textOnly(m.content, 'tool'), ToolCallId: m.tool_call_id ?? '' };
    default:
      throw unsupported(`混元不支持消息角色：${String(m.role)}`);
  }
}

function toCall(c: ToolCall): HunyuanToolCall {
  const args = c.function?.arguments;
  return { Id: c.id, Type: 'function', Function: { Name: c.function?.name ?? '', Arguments: typeof args === 'string' && args !== '' ? args : '{}' } };
}

/** Text of a message that can only carry text upstream (system, assistant, tool). */
function textOnly(content: ChatMessage['content'], role: string): string {
  return textOnlyContent(content, (type) => unsupported(`混元的 ${role} 消息只能包含文本，不支持 ${type}`));
}

/** A user turn: plain Content for text, Contents when it carries images (Hunyuan's vision models). */
function userMessage(content: ChatMessage['content']): HunyuanMessage {
  if (content === null || content === undefined) return { Role: 'user', Content: '' };
  if (typeof content === 'string') return { Role: 'user', Content: content };
  if (content.every((p) => p.type === 'text')) return { Role: 'user', Content: textOnly(content, 'user') };
  return { Role: 'user', Contents: content.map(userPart) };
}

function userPart(part: ContentPart): HunyuanContent {
  if (part.type === 'text' && typeof part.text === 'string') return { Type: 'text', Text: part.text };
  if (part.type === 'image_url') {
    const image = (part as { image_url?: { url?: unknown } | string }).image_url;
    const url = typeof image === 'string' ? image : image?.url;
    if (typeof url !== 'string' || url === '') throw unsupported('图片内容缺少 url');
    return { Type: 'image_url', ImageUrl: { Url: url } };
  }
  throw unsupported(`混元不支持此类消息内容：${part.type}`);
}
