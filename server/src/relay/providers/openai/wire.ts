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

/**
 * The largest output OpenAI's models accept: a larger limit is refused outright ("max_tokens is too large"), and
 * coding agents ask for 32,000 or more whatever the model. First match wins.
 */
const OUTPUT_CAPS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-4o-2024-05-13/, 4096],
  [/^(chatgpt-)?gpt-4o|^chatgpt-4o/, 16_384],
  [/^gpt-4\.1/, 32_768],
  [/^gpt-4-(turbo|1106|0125)/, 4096],
  [/^gpt-4(-0613)?$/, 8192],
  [/^gpt-3\.5-turbo/, 4096],
  [/^o1-mini/, 65_536],
  [/^o1-preview/, 32_768],
  [/^o\d/, 100_000],
  [/^gpt-5/, 128_000],
];

function outputCap(model: string): number {
  for (const [pattern, cap] of OUTPUT_CAPS) if (pattern.test(model)) return cap;
  return Infinity;
}

/**
 * A Claude or Gemini client's output limit and effort as OpenAI's own models take them: reasoning models want
 * max_completion_tokens, every model refuses a limit above its own, and one that does not reason refuses
 * reasoning_effort (left out and named).
 */
function fitOpenAIModel(out: Record<string, unknown>, model: string, dropped: string[] | undefined): void {
  const reasoning = REASONING_MODEL.test(model);
  const limit = typeof out.max_tokens === 'number' ? out.max_tokens : undefined;
  if (limit !== undefined) {
    const capped = Math.min(limit, outputCap(model));
    if (reasoning) {
      out.max_completion_tokens = capped;
      out.max_tokens = undefined;
    } else out.max_tokens = capped;
  }
  if (out.reasoning_effort !== undefined && !reasoning) {
    out.reasoning_effort = undefined;
    dropped?.push('reasoning_effort');
  }
}

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
      fitOpenAIModel(out, up.upstreamModel, up.dropped);
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
