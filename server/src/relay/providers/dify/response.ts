import type { ChatChunk, ChatCompletion, ChatUsage } from '../../formats/openai/chat.js';
import { ChunkWriter, newChatId } from '../chunk-writer.js';
import type { DifyAnswer, DifyEvent, DifyUsage } from './types.js';

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** Dify's metadata.usage as OpenAI's; null when it reports no tokens (the answer is then counted here). */
export function chatUsageFromDify(u: DifyUsage | null | undefined): ChatUsage | null {
  if (!u || typeof u !== 'object') return null;
  const prompt = count(u.prompt_tokens);
  const completion = count(u.completion_tokens);
  if (prompt + completion === 0) return null;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** A blocking answer as a ChatCompletion (one choice, finished with stop: Dify reports no other ending). */
export function difyToChatCompletion(answer: DifyAnswer, model: string, created = Math.floor(Date.now() / 1000)): ChatCompletion {
  const out: ChatCompletion = {
    id: answer.message_id || newChatId(),
    object: 'chat.completion',
    created: count(answer.created_at) || created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: typeof answer.answer === 'string' ? answer.answer : '' }, finish_reason: 'stop' }],
  };
  const usage = chatUsageFromDify(answer.metadata?.usage);
  if (usage) out.usage = usage;
  return out;
}

/** A workflow or node event as a line of progress text (shown as reasoning when the channel asks for it). */
export function progressLine(e: DifyEvent): string | null {
  const kind = e.event ?? '';
  const d = e.data ?? {};
  if (kind.startsWith('workflow_')) return `Workflow: ${d.workflow_id ?? e.workflow_run_id ?? ''}${kind === 'workflow_finished' && d.status ? ` ${d.status}` : ''}\n`;
  if (kind.startsWith('node_')) return `Node: ${d.title || d.node_type || ''}${kind === 'node_finished' && d.status ? ` ${d.status}` : ''}\n`;
  return null;
}

/**
 * Dify stream events as ChatChunks: message / agent_message carry the answer's text; message_end closes it with the
 * usage in its metadata; error ends the stream as a failure; ping and the other events carry nothing for the client.
 * Workflow and node progress events become reasoning text only when `showProgress` (a channel setting).
 */
export class DifyStreamToChat {
  failure: { type: string; message: string } | null = null;
  private ended = false;
  private readonly writer: ChunkWriter;

  constructor(
    model: string,
    private readonly showProgress: boolean,
    created?: number,
  ) {
    this.writer = new ChunkWriter(model, created);
  }

  push(e: DifyEvent): ChatChunk[] {
    if (this.ended || this.failure) return [];
    if (!this.writer.id && typeof e.message_id === 'string' && e.message_id) this.writer.id = e.message_id;
    switch (e.event) {
      case 'message':
      case 'agent_message':
        return typeof e.answer === 'string' && e.answer !== '' ? [this.writer.chunk({ content: e.answer })] : [];
      case 'message_end': {
        this.ended = true;
        const out = [this.writer.chunk({}, 'stop')];
        const usage = chatUsageFromDify(e.metadata?.usage);
        if (usage) out.push(this.writer.usage(usage));
        return out;
      }
      case 'error':
        this.failure = { type: 'upstream_error', message: typeof e.message === 'string' && e.message ? e.message : 'Dify 返回错误' };
        return [];
      default: {
        const line = this.showProgress ? progressLine(e) : null;
        return line ? [this.writer.chunk({ reasoning_content: line })] : [];
      }
    }
  }
}
