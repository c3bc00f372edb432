import { CHANNEL_TYPE } from '@switchyard/shared';
import type { ChatChunk } from '../../formats/openai/chat.js';
import { parseOpenAIError } from '../../formats/openai/errors.js';
import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import { responsesToCompletion } from '../../formats/responses/to-completion.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { SseSplitter } from '../gemini/sse.js';

/*
 * OpenAI's chat body as a wire: the canonical shape itself. A client of another format reaches an OpenAI-compatible
 * channel through here; usage is always asked for in streams, since it is what gets billed.
 */

/** Channel types that are OpenAI's own service (no extension parameters). */
const OPENAI_ITSELF = new Set<number>([CHANNEL_TYPE.OPENAI, CHANNEL_TYPE.AZURE]);

/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5...): they refuse max_tokens and take max_completion_tokens. */
const REASONING_MODEL = /^(o\d|gpt-5)/;

/** An upstream answer that must be a JSON object (throws otherwise: the answer is then unreadable). */
export function parseJson(body: Buffer): Record<string, unknown> {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('upstream answer is not a JSON object');
  return parsed as Record<string, unknown>;
}

/** Some compatible servers send finish reasons outside OpenAI's four; the canonical stream carries only those. */
function normalizeChunk(chunk: ChatChunk): ChatChunk {
  for (const choice of chunk.choices ?? []) {
    if (choice.finish_reason) choice.finish_reason = normalizeFinishReason(choice.finish_reason);
  }
  return chunk;
}

/** OpenAI's chat stream read as canonical chunks; `accept` is where a compatible server's differences are fixed. */
export class OpenAIChunkDecoder implements ChunkDecoder {
  failure: { type: string; message: string } | null = null;
  private readonly splitter = new SseSplitter();

  push(chunk: Buffer): ChatChunk[] {
    return this.read(this.splitter.push(chunk));
  }

  finish(): ChatChunk[] {
    return this.read(this.splitter.finish());
  }

  /** One parsed chunk (choices always an array) as the canonical chunks it stands for. */
  protected accept(chunk: ChatChunk): ChatChunk[] {
    return [normalizeChunk(chunk)];
  }

  private read(events: string[]): ChatChunk[] {
    const out: ChatChunk[] = [];
    for (const data of events) {
      if (data.charCodeAt(0) !== 0x7b /* { */ && data.trim() === '[DONE]') continue;
      let parsed: ChatChunk & { error?: { type?: unknown; message?: unknown } };
      try {
        parsed = JSON.parse(data) as typeof parsed;
      } catch {
        continue;
      }
      if (!parsed || typeof parsed !== 'object') continue;
      if (parsed.error && typeof parsed.error === 'object') {
        this.failure = {
          type: typeof parsed.error.type === 'string' ? parsed.error.type : 'upstream_error',
          message: typeof parsed.error.message === 'string' ? parsed.error.message : '上游返回错误',
        };
        continue;
      }
      if (!Array.isArray(parsed.choices)) parsed.choices = [];
      out.push(...this.accept(parsed));
    }
    return out;
  }
}

export const openAIWire: WireCodec = {
  format: 'openai',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    const out: Record<string, unknown> = { ...canonical, model: up.upstreamModel };
    if (out.stream === true && up.call.mode === 'chat') {
      const existing = typeof out.stream_options === 'object' && out.stream_options !== null ? out.stream_options : {};
      // Object.assign: a spread followed by a new key takes V8's slow path (about 1.4 µs on Node 20).
      out.stream_options = Object.assign({}, existing, { include_usage: true });
    }
    // top_k (from a Claude or Gemini client) is not an OpenAI parameter: OpenAI and Azure refuse it. Compatible
    // servers (vLLM, DeepSeek...) take it as an extension, so it goes to them.
    if (OPENAI_ITSELF.has(up.channel.type)) {
      if (out.top_k !== undefined) {
        out.top_k = undefined;
        up.dropped?.push('top_k');
      }
      // A Claude or Gemini client's output limit, in the parameter these models take.
      if (out.max_tokens !== undefined && REASONING_MODEL.test(up.upstreamModel)) {
        out.max_completion_tokens = out.max_tokens;
        out.max_tokens = undefined;
      }
    }
    Object.assign(out, up.channel.paramOverride);
    return out;
  },
  decode(body: Buffer, up: UpstreamCall) {
    const parsed = parseJson(body);
    if (up.call.mode === 'chat' && Array.isArray(parsed.choices)) {
      for (const choice of parsed.choices as Array<{ finish_reason?: string | null }>) {
        if (choice.finish_reason) choice.finish_reason = normalizeFinishReason(choice.finish_reason);
      }
    }
    return parsed;
  },
  streamDecoder: () => new OpenAIChunkDecoder(),
  parseError: parseOpenAIError,
};

const passthroughOnly = (): never => {
  throw new Error('requests are never converted into the Responses format');
};

/**
 * OpenAI's own Responses endpoint: only reached by Responses clients passing through, so requests are never encoded
 * into it; its answers are decoded only to count an answer that came without usage.
 */
export const responsesWire: WireCodec = {
  format: 'responses',
  encode: passthroughOnly,
  decode: (body) => responsesToCompletion(parseJson(body)) as unknown as Record<string, unknown>,
  streamDecoder: passthroughOnly,
  parseError: parseOpenAIError,
};
