import type { ChatChunk, ChatMessage, ImagePart } from '../../formats/openai/chat.js';
import type { Attempt, UpstreamCall, WireCodec } from '../../types.js';
import { OpenAIChunkDecoder, openAIWire } from '../openai/wire.js';
import { parseZhipuError } from './errors.js';

/*
 * Zhipu's v4 bodies as a wire: OpenAI's chat and embeddings shapes with differences a client of OpenAI's would
 * notice, so every call is converted rather than passed through. Answers come without "object"; a stream reports
 * its usage on the chunk that carries the finish, always (Zhipu documents no stream_options); the finish reason
 * "sensitive" is Zhipu's content filter and "network_error" a generation that failed; top_p must lie in (0, 1); an
 * inline image (GLM-4V) is the bare base64 data, not a data: URL.
 */

export const ZHIPU_V4_WIRE = 'zhipu_v4' as const;

declare module '../../types.js' {
  interface ProviderWires {
    zhipu_v4: true;
  }
}

/** Zhipu takes top_p in the open interval (0, 1): 1 (no cut at all) goes as the nearest value it accepts. */
const TOP_P_CEILING = 0.99;

/** The finish reason of a generation Zhipu could not complete. */
const FAILED = 'network_error';

type Choices = Array<{ finish_reason?: string | null }> | undefined;

const failedIn = (choices: Choices) => (choices ?? []).some((c) => c?.finish_reason === FAILED);

/** A whole v4 chat answer whose generation failed: an upstream server error (retried elsewhere, not billed). */
export function zhipuV4AnswerError(body: string): number | null {
  if (!body.includes(FAILED)) return null;
  try {
    return failedIn((JSON.parse(body) as { choices?: Choices }).choices) ? 500 : null;
  } catch {
    return null;
  }
}

/** v4 stream chunks as canonical ones: usage split off the finish chunk into a usage-only chunk, as OpenAI sends it. */
class ZhipuV4ChunkDecoder extends OpenAIChunkDecoder {
  protected override accept(raw: ChatChunk): ChatChunk[] {
    if (failedIn(raw.choices)) {
      this.failure = { type: 'upstream_error', message: '智谱模型推理异常（network_error）' };
      return [];
    }
    const out: ChatChunk[] = [];
    for (const c of super.accept(raw)) {
      c.object = 'chat.completion.chunk';
      const usage = c.usage;
      if (usage && c.choices.length > 0) {
        delete c.usage;
        out.push(c, { ...c, choices: [], usage });
      } else {
        out.push(c);
      }
    }
    return out;
  }
}

const DATA_URL = /^data:[^;,]+;base64,/;

/** Messages with every inline image as Zhipu takes it: the base64 data without its data: URL prefix. */
function bareImages(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages;
  return messages.map((m: ChatMessage) => {
    if (!Array.isArray(m?.content) || !m.content.some((p) => p.type === 'image_url')) return m;
    const content = m.content.map((p) => {
      const url = (p as ImagePart).image_url?.url;
      return p.type === 'image_url' && typeof url === 'string' && DATA_URL.test(url) ? { ...p, image_url: { ...(p as ImagePart).image_url, url: url.replace(DATA_URL, '') } } : p;
    });
    return { ...m, content };
  });
}

export const zhipuV4Wire: WireCodec = {
  format: ZHIPU_V4_WIRE,
  encode(canonical: Record<string, unknown>, up: Attempt) {
    const { stream_options: _asked, ...rest } = canonical;
    const out: Record<string, unknown> = { ...rest, model: up.upstreamModel };
    if (up.call.mode === 'chat') {
      if (typeof out.top_p === 'number' && out.top_p >= 1) out.top_p = TOP_P_CEILING;
      out.messages = bareImages(out.messages);
    }
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const out = openAIWire.decode(body, up);
    if (up.call.mode === 'chat') out.object = 'chat.completion';
    return out;
  },
  streamDecoder: () => new ZhipuV4ChunkDecoder(),
  parseError: parseZhipuError,
};
