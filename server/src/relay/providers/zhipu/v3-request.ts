import type { ChatMessage, ChatRequest } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import type { ZhipuV3Message, ZhipuV3Request } from './v3-types.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The text of a message (the field policy has already refused every part but text and refusals). */
function textOf(content: ChatMessage['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * A ChatRequest as the v3 body. The prompt has only user and assistant turns: system text goes in front of the
 * first user turn (the API has no place of its own for it), and turns of the same role in a row are joined.
 */
export function chatToZhipuV3Request(req: ChatRequest, stream: boolean): ZhipuV3Request {
  const system: string[] = [];
  const prompt: ZhipuV3Message[] = [];
  for (const m of req.messages ?? []) {
    const text = textOf(m.content);
    if (m.role === 'system' || m.role === 'developer') {
      if (text) system.push(text);
      continue;
    }
    if (m.role !== 'user' && m.role !== 'assistant') throw unsupported(`智谱 ChatGLM v3 不支持消息角色：${String(m.role)}`);
    const last = prompt.at(-1);
    if (last?.role === m.role) last.content += `\n${text}`;
    else prompt.push({ role: m.role, content: text });
  }
  if (system.length > 0) {
    const first = prompt.find((m) => m.role === 'user');
    const head = system.join('\n');
    if (first) first.content = `${head}\n\n${first.content}`;
    else prompt.unshift({ role: 'user', content: head });
  }
  const out: ZhipuV3Request = { prompt, return_type: 'text' };
  if (isNum(req.temperature)) out.temperature = req.temperature;
  if (isNum(req.top_p)) out.top_p = req.top_p;
  if (stream) out.incremental = true;
  return out;
}
