import type { ChatRequest } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { textOnlyContent } from '../text-content.js';
import type { PalmMessage, PalmRequest } from './types.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const USER = '0';
const MODEL = '1';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A ChatRequest as generateMessage's body: system turns become the prompt's context, the others its messages, user
 * as author "0" and assistant as "1"; PaLM wants the authors to alternate, so consecutive turns of one side are joined.
 */
export function chatToPalmRequest(req: ChatRequest): PalmRequest {
  const context: string[] = [];
  const messages: PalmMessage[] = [];
  for (const m of req.messages ?? []) {
    const content = textOnlyContent(m.content, (type) => unsupported(`PaLM 只接受文本消息，不支持 ${type}`));
    if (m.role === 'system' || m.role === 'developer') {
      context.push(content);
      continue;
    }
    if (m.role !== 'user' && m.role !== 'assistant') throw unsupported(`PaLM 不支持消息角色：${String(m.role)}`);
    const author = m.role === 'user' ? USER : MODEL;
    const last = messages.at(-1);
    if (last?.author === author) last.content += `\n\n${content}`;
    else messages.push({ author, content });
  }
  const out: PalmRequest = { prompt: { messages } };
  if (context.length > 0) out.prompt.context = context.join('\n\n');
  if (isNum(req.temperature)) out.temperature = req.temperature;
  if (isNum(req.top_p)) out.topP = req.top_p;
  if (isNum(req.top_k)) out.topK = req.top_k;
  return out;
}
