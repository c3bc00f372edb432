import type { ChatChunk, ChatCompletion } from '../../formats/openai/chat.js';
import { ChunkWriter, newChatId } from '../chunk-writer.js';
import type { LibraryAnswer, LibraryDocument, LibraryEvent } from './types.js';

/** The documents an answer drew on, as a Markdown list appended to it (the established gateway's wording). */
export function referencesOf(documents: readonly LibraryDocument[] | undefined): string {
  if (!documents?.length) return '';
  return `\n\n参考文档：\n${documents.map((d, i) => `${i + 1}. [${d.title ?? ''}](${d.url ?? ''})\n`).join('')}`;
}

/** A whole answer as a ChatCompletion: the answer with its references. The library reports no token counts. */
export function libraryToChatCompletion(answer: LibraryAnswer, model: string, created = Math.floor(Date.now() / 1000)): ChatCompletion {
  const content = (typeof answer.answer === 'string' ? answer.answer : '') + referencesOf(answer.documents);
  return { id: newChatId(), object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}

/**
 * Streamed events as ChatChunks: each event's content as it comes; the documents (sent with the events, the last
 * list kept) are appended when the stream finishes (finish: true, or its end), then the answer is closed with stop.
 */
export class LibraryStreamToChat {
  private documents: LibraryDocument[] = [];
  private ended = false;
  private readonly writer: ChunkWriter;

  constructor(model: string, created?: number) {
    this.writer = new ChunkWriter(model, created);
  }

  push(e: LibraryEvent): ChatChunk[] {
    if (this.ended) return [];
    if (Array.isArray(e.documents) && e.documents.length > 0) this.documents = e.documents;
    const out: ChatChunk[] = [];
    if (typeof e.content === 'string' && e.content !== '') out.push(this.writer.chunk({ content: e.content }));
    if (e.finish === true) out.push(...this.end());
    return out;
  }

  /** The references and the finish, once. */
  end(): ChatChunk[] {
    if (this.ended) return [];
    this.ended = true;
    const references = referencesOf(this.documents);
    return [this.writer.chunk(references ? { content: references } : {}, 'stop')];
  }
}
