import type { ChatMessage, ChatRequest, ToolDefinition } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { textOnlyContent } from '../text-content.js';
import type { SparkFunction, SparkMessage, SparkRequest } from './types.js';
import type { SparkVersion } from './versions.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Spark takes temperature in (0, 1]: 0 (the most deterministic) goes as the smallest value it accepts. */
const TEMPERATURE_FLOOR = 0.01;

/** Spark's uid is a string of 32 characters at most. */
const UID_LENGTH = 32;

/** The domains that take payload.functions over the WebSocket API (Pro, Max, 4.0 Ultra). */
const FUNCTION_DOMAINS = new Set(['generalv3', 'generalv3.5', '4.0Ultra']);

function textOf(content: ChatMessage['content'], role: string): string {
  return textOnlyContent(content, (type) => unsupported(`星火的 ${role} 消息只能包含文本，不支持 ${type}`));
}

/**
 * A message as Spark's text turn. Spark's WebSocket protocol has no turn for a function's result, so a history
 * with tool calls or tool results cannot be sent without changing what it says: it is refused.
 */
function toMessage(m: ChatMessage): SparkMessage {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(m.content, 'system') };
    case 'user':
      return { role: 'user', content: textOf(m.content, 'user') };
    case 'assistant':
      if ((m.tool_calls ?? []).length > 0) throw unsupported('星火的 WebSocket 接口无法接收历史中的函数调用');
      return { role: 'assistant', content: textOf(m.content, 'assistant') };
    case 'tool':
      throw unsupported('星火的 WebSocket 接口无法接收函数调用的结果');
    default:
      throw unsupported(`星火不支持消息角色：${String(m.role)}`);
  }
}

function toFunction(t: ToolDefinition): SparkFunction {
  return { name: t.function.name, description: t.function.description ?? '', parameters: t.function.parameters ?? { type: 'object', properties: {} } };
}

/**
 * A ChatRequest as Spark's request frame, without header.app_id (the key is read when the call is signed). The
 * field policy has already refused what Spark cannot do.
 */
export function chatToSparkRequest(req: ChatRequest, version: SparkVersion): SparkRequest {
  const chat: SparkRequest['parameter']['chat'] = { domain: version.domain };
  if (isNum(req.temperature)) chat.temperature = req.temperature > 0 ? req.temperature : TEMPERATURE_FLOOR;
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (isNum(maxTokens)) chat.max_tokens = maxTokens;
  if (isNum(req.top_k)) chat.top_k = req.top_k;
  const out: SparkRequest = { header: { app_id: '' }, parameter: { chat }, payload: { message: { text: (req.messages ?? []).map(toMessage) } } };
  if (typeof req.user === 'string' && req.user) out.header.uid = req.user.slice(0, UID_LENGTH);

  const tools = (req.tools ?? []).filter((t) => t.type === 'function');
  // Offering no function is how Spark is told to call none.
  if (tools.length > 0 && req.tool_choice !== 'none') {
    if (!FUNCTION_DOMAINS.has(version.domain)) throw unsupported(`星火 ${version.domain} 不支持函数调用（Pro、Max、4.0 Ultra 支持）`);
    out.payload.functions = { text: tools.map(toFunction) };
  }
  return out;
}
