import type { ChatRequest } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import { textOnlyContent } from '../text-content.js';
import type { LibraryRequest } from './types.js';

const unsupported = (message: string) => new RelayError(400, message, 'unsupported_content', 'invalid_request_error');

/**
 * The library answers one question at a time from its documents: the query is the last user message, as the
 * established gateway sends it (earlier turns have no field to go to).
 */
export function chatToLibraryRequest(req: ChatRequest, model: string, libraryId: string, stream: boolean): LibraryRequest {
  const last = [...(req.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!last) throw unsupported('知识库问答需要一条用户消息作为问题');
  const query = textOnlyContent(last.content, (type) => unsupported(`知识库只接受文本问题，不支持 ${type}`));
  if (query.trim() === '') throw unsupported('知识库问答的问题不能为空');
  return { model, query, libraryId, stream };
}
