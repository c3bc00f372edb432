import { randomUUID } from 'node:crypto';
import type { ChatMessage, ChatRequest, ContentPart } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { textOnlyContent } from '../text-content.js';
import type { DifyFile, DifyRequest, PendingUpload } from './types.js';

/*
 * Dify's chat-messages API takes one query per call (a conversation lives in Dify, by conversation_id). A stateless
 * OpenAI conversation is therefore flattened into the query as the established gateway does: each turn as
 * "ROLE: \n<text>\n", images as files of the message.
 */

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

const LABEL: Record<string, string> = { system: 'SYSTEM', developer: 'SYSTEM', assistant: 'ASSISTANT', user: 'USER', tool: 'TOOL' };

/** The end user Dify records the message under: the client's `user`, else one made for this call. */
export function difyUser(req: ChatRequest): string {
  return typeof req.user === 'string' && req.user.trim() !== '' ? req.user : `switchyard-${randomUUID()}`;
}

function imageFile(part: ContentPart): DifyFile | PendingUpload {
  const image = (part as { image_url?: { url?: unknown } | string }).image_url;
  const url = typeof image === 'string' ? image : image?.url;
  if (typeof url !== 'string' || url === '') throw unsupported('图片内容缺少 url');
  if (url.startsWith('data:')) return { type: 'image', transfer_method: 'local_file', upload: url };
  if (/^https?:\/\//i.test(url)) return { type: 'image', transfer_method: 'remote_url', url };
  throw unsupported('Dify 只接受 http(s) 链接或 data: URL 形式的图片');
}

/** A user turn: each text part as its own USER block (as the established gateway writes them), images as files. */
function userTurn(content: ChatMessage['content'], files: Array<DifyFile | PendingUpload>): string {
  if (content === null || content === undefined) return 'USER: \n\n';
  if (typeof content === 'string') return `USER: \n${content}\n`;
  let out = '';
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') out += `USER: \n${part.text}\n`;
    else if (part.type === 'image_url') files.push(imageFile(part));
    else if (part.type !== 'refusal') throw unsupported(`Dify 不支持此类消息内容：${part.type}`);
  }
  return out;
}

/** A ChatRequest as Dify's chat-messages body; images given as data: URLs are left for build() to upload. */
export function chatToDifyRequest(req: ChatRequest, stream: boolean, user = difyUser(req)): DifyRequest {
  const files: Array<DifyFile | PendingUpload> = [];
  let query = '';
  for (const m of req.messages ?? []) {
    const label = LABEL[m.role];
    if (!label) throw unsupported(`Dify 不支持消息角色：${String(m.role)}`);
    if (m.role === 'user') {
      query += userTurn(m.content, files);
      continue;
    }
    const text = textOnlyContent(m.content, (type) => unsupported(`Dify 的 ${m.role} 消息只能包含文本，不支持 ${type}`));
    query += `${label}: \n${text}\n`;
  }
  const out: DifyRequest = { inputs: {}, query, response_mode: stream ? 'streaming' : 'blocking', user, auto_generate_name: false };
  if (files.length > 0) out.files = files;
  return out;
}
