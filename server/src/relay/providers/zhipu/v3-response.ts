import type { ChatChunk, ChatCompletion, ChatUsage, FinishReason } from '../../formats/openai/chat.js';
import { ChunkWriter, newChatId } from '../chunk-writer.js';
import type { ZhipuV3Event, ZhipuV3Response, ZhipuV3Usage } from './v3-types.js';

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null);

/** v3 usage in OpenAI's terms; null without both counts (a total alone cannot be billed at two prices). */
export function chatUsageFromZhipuV3(u: ZhipuV3Usage | null | undefined): ChatUsage | null {
  const prompt = count(u?.prompt_tokens);
  const completion = count(u?.completion_tokens);
  if (prompt === null || completion === null) return null;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** invoke's answer (a succeeded task) as a ChatCompletion. */
export function zhipuV3ToChatCompletion(resp: ZhipuV3Response, model: string): ChatCompletion {
  const text = (resp.data?.choices ?? []).map((c) => (typeof c.content === 'string' ? c.content : '')).join('');
  const out: ChatCompletion = {
    id: resp.data?.request_id || resp.data?.task_id || newChatId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  };
  const usage = chatUsageFromZhipuV3(resp.data?.usage);
  if (usage) out.usage = usage;
  return out;
}

/** One SSE event's fields; null for a blank one. */
export function parseZhipuV3Event(text: string): ZhipuV3Event | null {
  const event: ZhipuV3Event = { event: '', id: '', data: '', meta: '' };
  let data: string[] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    const value = line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (name === 'data') (data ??= []).push(value);
    else if (name === 'event') event.event = value;
    else if (name === 'id') event.id = value;
    else if (name === 'meta') event.meta = value;
  }
  if (data) event.data = data.join('\n');
  return data || event.event || event.meta ? event : null;
}

function metaOf(meta: string): { usage?: ZhipuV3Usage; request_id?: string } {
  try {
    const parsed: unknown = JSON.parse(meta);
    return parsed && typeof parsed === 'object' ? (parsed as { usage?: ZhipuV3Usage }) : {};
  } catch {
    return {};
  }
}

/**
 * sse-invoke events as ChatChunks: each add event's text is content; finish (and interrupted, the answer stopped by
 * Zhipu's content check) ends the answer and brings the usage in its meta, sent as a usage-only chunk (choices: []),
 * as OpenAI sends with include_usage; an error event is the stream's failure.
 */
export class ZhipuV3StreamToChat {
  failure: { type: string; message: string } | null = null;
  private ended = false;
  private readonly out: ChunkWriter;

  constructor(model: string, created?: number) {
    this.out = new ChunkWriter(model, created);
  }

  push(e: ZhipuV3Event): ChatChunk[] {
    if (this.ended) return [];
    if (!this.out.id && e.id) this.out.id = e.id;
    switch (e.event) {
      case 'error':
        this.ended = true;
        this.failure = { type: 'upstream_error', message: e.data || '智谱 ChatGLM 生成出错' };
        return [];
      case 'finish':
        return this.end(e, 'stop');
      case 'interrupted':
        return this.end(e, 'content_filter');
      default:
        return e.data ? [this.out.chunk({ content: e.data })] : [];
    }
  }

  private end(e: ZhipuV3Event, reason: FinishReason): ChatChunk[] {
    this.ended = true;
    const out: ChatChunk[] = [];
    if (e.data) out.push(this.out.chunk({ content: e.data }));
    out.push(this.out.chunk({}, reason));
    const usage = chatUsageFromZhipuV3(metaOf(e.meta).usage);
    if (usage) out.push(this.out.usage(usage));
    return out;
  }
}
