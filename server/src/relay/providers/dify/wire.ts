import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { jsonEventData, SseSplitter } from '../gemini/sse.js';
import { parseJson } from '../openai/wire.js';
import { parseDifyError } from './errors.js';
import { DIFY_FIELDS } from './fields.js';
import { chatToDifyRequest } from './request.js';
import { DifyStreamToChat, difyToChatCompletion } from './response.js';
import type { DifyAnswer, DifyEvent } from './types.js';

/** Dify's chat-messages body as a wire (Dify channels, chat only). */

declare module '../../types.js' {
  interface ProviderWires {
    dify: true;
  }
}

/** The channel setting that shows workflow and node progress to the client (as reasoning text). */
export const SHOW_PROGRESS_SETTING = 'show_workflow_events';

export const showsProgress = (up: Pick<Attempt, 'channel'>): boolean => up.channel.setting?.[SHOW_PROGRESS_SETTING] === true;

export class DifyChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter(jsonEventData);
  private readonly toChat: DifyStreamToChat;

  constructor(model: string, showProgress: boolean, created?: number) {
    this.toChat = new DifyStreamToChat(model, showProgress, created);
  }

  get failure() {
    return this.toChat.failure;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.splitter.push(chunk).flatMap((e) => this.toChat.push(e as DifyEvent));
  }

  finish(): ChatChunk[] {
    return this.splitter.finish().flatMap((e) => this.toChat.push(e as DifyEvent));
  }
}

export const difyWire: WireCodec = {
  format: 'dify',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    checkCanonical(canonical as ChatRequest, DIFY_FIELDS, up.dropped);
    const out = chatToDifyRequest(canonical as ChatRequest, up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode: (body: Buffer, up: UpstreamCall) => difyToChatCompletion(parseJson(body) as DifyAnswer, up.call.model) as unknown as Record<string, unknown>,
  streamDecoder: (up) => new DifyChunkDecoder(up.call.model, showsProgress(up)),
  parseError: parseDifyError,
};
