import { compactedResponse } from './compact.js';
import type { ClientCall } from '../../types.js';
import type { ChunkEncoder, ClientFormatModule } from '../client.js';
import type { ChatChunk, ChatCompletion, ChatUsage } from '../openai/chat.js';
import { openAIErrorBody } from '../openai/errors.js';
import { WholeEventsPassthroughMeter, type StreamCut } from '../passthrough-meter.js';
import { chatToResponses, ChatToResponsesStream } from './from-chat.js';
import { newIdBase } from './ids.js';
import { ResponsesStreamMeter, responsesUsageFromJson } from './meter.js';
import { responsesToChat } from './to-chat.js';
import type { ResponsesTurn } from './turn.js';
import { responsesPromptTexts } from './prompt-text.js';


/** The documented codes of a failed response's error, by upstream status. */
const failureCode = (status: number): string => (status === 429 ? 'rate_limit_exceeded' : 'server_error');

/**
 * The request's settings as the converted response echoes them: the client's model name, `store` true only when the
 * gateway keeps the response, and the previous response the gateway resolved (the body sent on no longer names it).
 */
function echoOf(call: ClientCall): Record<string, unknown> {
  const turn = call.turn;
  return { ...call.json, model: call.model, store: turn?.store === true, previous_response_id: turn?.previousResponseId ?? null };
}

class ResponsesChunkEncoder implements ChunkEncoder {
  private readonly stream: ChatToResponsesStream;
  private readonly turn: ResponsesTurn | undefined;

  constructor(call: ClientCall) {
    this.turn = call.turn;
    this.stream = new ChatToResponsesStream(echoOf(call), call.model, call.turn?.base ?? newIdBase());
  }

  push(chunk: ChatChunk): string {
    return this.stream.push(chunk);
  }

  finish(usage: ChatUsage | undefined): string {
    const out = this.stream.finish(usage);
    if (this.turn) this.turn.produced = this.stream.finished;
    return out;
  }

  error(status: number, message: string): string {
    return this.stream.error(message, failureCode(status));
  }
}

/** OpenAI's Responses stream passed through byte for byte; it has no [DONE] line to add at the end. */
class ResponsesPassthroughMeter extends WholeEventsPassthroughMeter<ResponsesStreamMeter> {
  constructor(call: ClientCall) {
    super(new ResponsesStreamMeter(call.model));
  }

  protected ended(): boolean {
    return this.meter.sawStop;
  }

  /** A stream that stops before its terminal event ends with an error event, as the Responses API reports failures. */
  protected cutEvent(reason: StreamCut): string {
    const error = { type: 'error', code: 'server_error', message: reason.message, param: null };
    return `event: error\ndata: ${JSON.stringify(error)}\n\n`;
  }
}

export const responsesClient: ClientFormatModule = {
  format: 'responses',
  toCanonical: (call) => responsesToChat(call.json ?? {}, (call.dropped = [])) as unknown as Record<string, unknown>,
  fromCanonical(answer, call) {
    const response = chatToResponses(answer as unknown as ChatCompletion, echoOf(call), call.turn?.base ?? newIdBase());
    if (call.compact) return compactedResponse(response as unknown as Record<string, unknown>, call.json ?? {});
    if (call.turn) call.turn.produced = response;
    return response as unknown as Record<string, unknown>;
  },
  streamEncoder: (call) => new ResponsesChunkEncoder(call),
  streamMeter: (call) => new ResponsesPassthroughMeter(call),
  usageFromJson: (body) => responsesUsageFromJson(body),
  errorBody: (err) => openAIErrorBody(err),
  promptTexts: responsesPromptTexts,
};
