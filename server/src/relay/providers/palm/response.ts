import type { ChatChunk, ChatCompletion } from '../../formats/openai/chat.js';
import type { ChunkDecoder } from '../../types.js';
import { ChunkWriter, newChatId } from '../chunk-writer.js';
import type { PalmAnswer } from './types.js';

/**
 * generateMessage's answer as a ChatCompletion: the first candidate's content. An answer the filters withheld (no
 * candidate) ends with content_filter and no text. PaLM reports no token counts: they are counted here.
 */
export function palmToChatCompletion(answer: PalmAnswer, model: string, created = Math.floor(Date.now() / 1000)): ChatCompletion {
  const candidate = answer.candidates?.[0];
  const filtered = !candidate && (answer.filters?.length ?? 0) > 0;
  return {
    id: newChatId(),
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: typeof candidate?.content === 'string' ? candidate.content : '' }, finish_reason: filtered ? 'content_filter' : 'stop' }],
  };
}

/**
 * A "stream" from PaLM, which has none: the whole JSON answer is read (it is one short message), then given to the
 * client as a stream of its text and the finish, as the established gateway does. A body that does not parse yields
 * nothing (the call is then billed for its prompt only).
 */
export class PalmWholeAnswerDecoder implements ChunkDecoder {
  readonly failure = null;
  private readonly parts: Buffer[] = [];

  constructor(private readonly model: string) {}

  push(chunk: Buffer): ChatChunk[] {
    this.parts.push(chunk);
    return [];
  }

  finish(): ChatChunk[] {
    let answer: PalmAnswer;
    try {
      answer = JSON.parse(Buffer.concat(this.parts).toString('utf8')) as PalmAnswer;
    } catch {
      return [];
    }
    const whole = palmToChatCompletion(answer, this.model);
    const writer = new ChunkWriter(this.model, whole.created);
    const { message, finish_reason } = whole.choices[0];
    const out = [writer.chunk({ content: message.content ?? '' })];
    out.push(writer.chunk({}, finish_reason));
    return out;
  }
}
