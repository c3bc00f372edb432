import type { ChatMessage, ChatRequest, ContentPart, ToolCall, ToolDefinition } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { textOnlyContent } from '../text-content.js';
import type { CohereChatRequest, CohereMessage, CohereTool, CohereToolCall, CohereUserContent } from './types.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A ChatRequest as Cohere's v2 chat body (any client through a Cohere channel). */
export function chatToCohereRequest(req: ChatRequest, model: string, stream: boolean): CohereChatRequest {
  const out: CohereChatRequest = { model, messages: [], stream };
  for (const m of req.messages ?? []) {
    const msg = toMessage(m);
    if (msg) out.messages.push(msg);
  }

  let tools = (req.tools ?? []).filter((t) => t.type === 'function');
  const choice = req.tool_choice;
  if (choice === 'none') out.tool_choice = 'NONE';
  else if (choice === 'required') out.tool_choice = 'REQUIRED';
  else if (choice && typeof choice === 'object' && choice.function?.name) {
    // Cohere cannot name the tool it must call; offering only that one and requiring a call means the same.
    tools = tools.filter((t) => t.function.name === choice.function.name);
    out.tool_choice = 'REQUIRED';
  }
  if (tools.length > 0) {
    out.tools = tools.map(toTool);
    if (tools.some((t) => t.function.strict === true)) out.strict_tools = true;
  } else if (out.tool_choice === 'REQUIRED') {
    delete out.tool_choice;
  }

  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (isNum(maxTokens)) out.max_tokens = maxTokens;
  if (isNum(req.temperature)) out.temperature = req.temperature;
  if (isNum(req.top_p)) out.p = req.top_p;
  if (isNum(req.top_k)) out.k = req.top_k;
  if (isNum(req.seed)) out.seed = req.seed;
  if (isNum(req.frequency_penalty)) out.frequency_penalty = req.frequency_penalty;
  if (isNum(req.presence_penalty)) out.presence_penalty = req.presence_penalty;
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (Array.isArray(stop) && stop.length > 0) out.stop_sequences = stop;

  const format = req.response_format;
  if (format?.type === 'json_object') out.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema') {
    const schema = format.json_schema?.schema;
    out.response_format = schema ? { type: 'json_object', json_schema: schema } : { type: 'json_object' };
  }
  return out;
}

function toTool(t: ToolDefinition): CohereTool {
  const fn: CohereTool['function'] = { name: t.function.name };
  if (t.function.description) fn.description = t.function.description;
  fn.parameters = t.function.parameters ?? { type: 'object', properties: {} };
  return { type: 'function', function: fn };
}

function toMessage(m: ChatMessage): CohereMessage | null {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOnly(m.content, 'system') };
    case 'user':
      return { role: 'user', content: userContent(m.content) };
    case 'assistant': {
      const text = textOnly(m.content, 'assistant');
      const calls = (m.tool_calls ?? []).filter((c) => c.type === 'function' || c.type === undefined).map(toCall);
      if (calls.length > 0) return text ? { role: 'assistant', tool_calls: calls, tool_plan: text } : { role: 'assistant', tool_calls: calls };
      // Cohere rejects an assistant turn with nothing in it.
      return text ? { role: 'assistant', content: text } : null;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: textOnly(m.content, 'tool') };
    default:
      throw unsupported(`Cohere 不支持消息角色：${String(m.role)}`);
  }
}

function toCall(c: ToolCall): CohereToolCall {
  const args = c.function?.arguments;
  return {
    id: c.id,
    type: 'function',
    function: { name: c.function?.name ?? '', arguments: typeof args === 'string' && args !== '' ? args : '{}' },
  };
}

/** Text of a message that can only carry text upstream (system, assistant, tool). */
function textOnly(content: ChatMessage['content'], role: string): string {
  return textOnlyContent(content, (type) => unsupported(`Cohere 的 ${role} 消息只能包含文本，不支持 ${type}`));
}

function userContent(content: ChatMessage['content']): string | CohereUserContent[] {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map(userPart);
}

function userPart(part: ContentPart): CohereUserContent {
  if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
  if (part.type === 'image_url') {
    const image = (part as { image_url?: { url?: unknown; detail?: unknown } | string }).image_url;
    const url = typeof image === 'string' ? image : image?.url;
    if (typeof url !== 'string' || url === '') throw unsupported('图片内容缺少 url');
    const detail = typeof image === 'object' ? image?.detail : undefined;
    return detail === 'low' || detail === 'high' || detail === 'auto' ? { type: 'image_url', image_url: { url, detail } } : { type: 'image_url', image_url: { url } };
  }
  throw unsupported(`Cohere 不支持此类消息内容：${part.type}`);
}
