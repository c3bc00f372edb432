import type { ChatChunk, ChatUsage, FinishReason } from '../formats/openai/chat.js';

type Delta = ChatChunk['choices'][number]['delta'];

export const newChatId = () => `chatcmpl-${Math.random().toString(36).slice(2, 14)}`;

/**
 * The canonical chunks of one streamed answer: the id, model and creation time they share, the assistant role on
 * the first. The id is the upstream's when it gave one before the first chunk (`id`), else one made up.
 */
export class ChunkWriter {
  id = '';
  private started = false;

  constructor(
    private readonly model: string,
    private readonly created = Math.floor(Date.now() / 1000),
  ) {}

  chunk(delta: Delta, finishReason: FinishReason | null = null): ChatChunk {
    if (!this.started) {
      this.started = true;
      delta = { role: 'assistant', ...delta };
    }
    this.id ||= newChatId();
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }

  /** The usage-only chunk (choices: []) OpenAI sends last with include_usage. */
  usage(usage: ChatUsage): ChatChunk {
    return { id: this.id || (this.id = newChatId()), object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage };
  }
}
