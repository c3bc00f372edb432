import type { ChatMessage, ChatRequest, ToolDefinition } from '../../formats/openai/chat.js';
import type { EmbeddingsRequest } from '../../formats/gemini/embeddings.js';
import { RelayError } from '../../errors.js';
import type { ErnieEmbeddingsRequest, ErnieFunction, ErnieMessage, ErnieRequest } from './types.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** ERNIE takes temperature in (0, 1]: 0 (the most deterministic) goes as the smallest value it accepts. */
const TEMPERATURE_FLOOR = 0.01;

/** The text of a message (the field policy has already refused every part but text and refusals). */
function textOf(content: ChatMessage['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}

function toFunction(t: ToolDefinition): ErnieFunction {
  return { name: t.function.name, description: t.function.description ?? '', parameters: t.function.parameters ?? { type: 'object', properties: {} } };
}

/**
 * The conversation as ERNIE's messages: system text apart (ERNIE's `system`), a tool call as the assistant turn's
 * function_call (ERNIE calls one function per turn), a tool result as a function turn named after the function
 * called, and turns of the same role in a row joined (ERNIE wants user and assistant to alternate).
 */
function toMessages(messages: readonly ChatMessage[]): { system: string; messages: ErnieMessage[] } {
  const system: string[] = [];
  const out: ErnieMessage[] = [];
  const calledName = new Map<string, string>();
  for (const m of messages) {
    const text = textOf(m.content);
    switch (m.role) {
      case 'system':
      case 'developer':
        if (text) system.push(text);
        break;
      case 'user': {
        const last = out.at(-1);
        if (last?.role === 'user') last.content += `\n${text}`;
        else out.push({ role: 'user', content: text });
        break;
      }
      case 'assistant': {
        const calls = (m.tool_calls ?? []).filter((c) => c.type === 'function' || c.type === undefined);
        if (calls.length > 1) throw unsupported('文心每轮只能调用一个函数，历史中的助手消息包含多个工具调用');
        const msg: ErnieMessage = { role: 'assistant', content: text };
        const call = calls[0];
        if (call) {
          const name = call.function?.name ?? '';
          calledName.set(call.id, name);
          msg.function_call = { name, arguments: call.function?.arguments || '{}' };
        }
        const last = out.at(-1);
        if (last?.role === 'assistant' && !last.function_call && !msg.function_call) last.content += `\n${text}`;
        else out.push(msg);
        break;
      }
      case 'tool':
        out.push({ role: 'function', name: calledName.get(m.tool_call_id ?? '') ?? String(m.name ?? ''), content: text });
        break;
      default:
        throw unsupported(`文心不支持消息角色：${String(m.role)}`);
    }
  }
  return { system: system.join('\n'), messages: out };
}

/** A ChatRequest as ERNIE's chat body. */
export function chatToErnieRequest(req: ChatRequest, stream: boolean): ErnieRequest {
  const { system, messages } = toMessages(req.messages ?? []);
  const out: ErnieRequest = { messages };
  if (system) out.system = system;
  if (stream) out.stream = true;
  if (isNum(req.temperature)) out.temperature = req.temperature > 0 ? req.temperature : TEMPERATURE_FLOOR;
  if (isNum(req.top_p)) out.top_p = req.top_p;
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (isNum(maxTokens)) out.max_output_tokens = maxTokens;
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (Array.isArray(stop) && stop.length > 0) out.stop = stop;
  if (typeof req.user === 'string' && req.user) out.user_id = req.user;
  if (req.response_format?.type === 'json_object') out.response_format = 'json_object';

  const choice = req.tool_choice;
  if (choice === 'required') throw unsupported('文心不能强制调用工具，请指定要调用的函数');
  const tools = (req.tools ?? []).filter((t) => t.type === 'function');
  // Offering no function is how ERNIE is told to call none.
  if (tools.length > 0 && choice !== 'none') {
    out.functions = tools.map(toFunction);
    if (choice && typeof choice === 'object' && choice.function?.name) out.tool_choice = { type: 'function', function: { name: choice.function.name } };
  }
  return out;
}

/** OpenAI's embeddings request as ERNIE's: the inputs as a list of texts. */
export function embeddingsToErnie(req: EmbeddingsRequest & { user?: unknown }): ErnieEmbeddingsRequest {
  const inputs = Array.isArray(req.input) ? req.input : [req.input];
  if (inputs.some((i) => typeof i !== 'string')) throw unsupported('文心的向量接口只接受文本输入');
  if (req.dimensions !== undefined) throw unsupported('文心的向量维度固定，不支持 dimensions');
  if (req.encoding_format === 'base64') throw unsupported('文心的向量接口只返回浮点数组，不支持 encoding_format=base64');
  const out: ErnieEmbeddingsRequest = { input: inputs as string[] };
  if (typeof req.user === 'string' && req.user) out.user_id = req.user;
  return out;
}
