import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import { RelayError } from '../../errors.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { jsonEventData, SseSplitter } from '../gemini/sse.js';
import { parseSparkError } from './errors.js';
import { SPARK_FIELDS } from './fields.js';
import { chatToSparkRequest } from './request.js';
import { SparkStreamToChat, sparkFramesToCompletion } from './response.js';
import type { SparkFrame } from './types.js';
import { sparkVersion } from './versions.js';

/*
 * Spark's chat frames as a wire. The WebSocket exchange (socket.ts) hands the answer frames on as they came: a
 * stream as one SSE event per frame, an answer read whole as the JSON array of its frames.
 */

export const SPARK_WIRE = 'spark' as const;

/** The version of an attempt (shared by the frame's domain and the endpoint's path). */
export const versionOfAttempt = (up: Attempt) => sparkVersion(up.call.apiVersion, up.upstreamModel, up.channel.other);

class SparkChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter(jsonEventData);
  private readonly toChat: SparkStreamToChat;

  constructor(model: string) {
    this.toChat = new SparkStreamToChat(model);
  }

  get failure() {
    return this.toChat.failure;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.splitter.push(chunk).flatMap((f) => this.toChat.push(f as SparkFrame));
  }

  finish(): ChatChunk[] {
    return this.splitter.finish().flatMap((f) => this.toChat.push(f as SparkFrame));
  }
}

function framesOf(body: Buffer): SparkFrame[] {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!Array.isArray(parsed)) throw new Error('upstream answer is not a list of frames');
  return parsed.filter((f): f is SparkFrame => !!f && typeof f === 'object');
}

export const sparkWire: WireCodec = {
  format: SPARK_WIRE,
  encode(canonical: Record<string, unknown>, up: Attempt) {
    if (up.call.mode !== 'chat') throw new RelayError(400, '讯飞星火渠道只支持对话', 'unsupported_mode', 'invalid_request_error');
    checkCanonical(canonical as ChatRequest, SPARK_FIELDS, up.dropped);
    const out = chatToSparkRequest(canonical as ChatRequest, versionOfAttempt(up));
    // Overrides are Spark's chat parameters (auditing, top_k, ...): the frame's header and payload are the call's own.
    Object.assign(out.parameter.chat, up.channel.paramOverride);
    return out as unknown as Record<string, unknown>;
  },
  decode: (body: Buffer, up: UpstreamCall) => sparkFramesToCompletion(framesOf(body), up.call.model) as unknown as Record<string, unknown>,
  streamDecoder: (up) => new SparkChunkDecoder(up.call.model),
  parseError: parseSparkError,
};
