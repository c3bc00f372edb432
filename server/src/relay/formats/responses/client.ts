import type { ClientCall } from '../../types.js';
import type { ChunkEncoder, ClientFormatModule } from '../client.js';
import type { ChatChunk, ChatCompletion, ChatUsage } from '../openai/chat.js';
import { openAIErrorBody } from '../openai/errors.js';
import { WholeEventsPassthroughMeter, type StreamCut } from '../passthrough-meter.js';
import { chatToResponses, ChatToResponsesStream } from './from-chat.js';
import { ResponsesStreamMeter, responsesUsageFromJson } from './meter.js';
import { responsesToChat } from './to-chat.js';


/** The documented codes of a failed response's error, by upstream status. */
const failureCode = (status: number): string => (status === 429 ? 'rate_limit_exceeded' : 'server_error');

class ResponsesChunkEncoder implements ChunkEncoder {
  private readonly stream: ChatToResponsesStream;

  constructor(call: ClientCall) {
    this.stream = new ChatToResponsesStream(call.json ?? {}, call.model);
  }

  push(chunk: ChatChunk): string {
    return this.stream.push(chunk);
  }

  finish(usage: ChatUsage | undefined): string {
    return this.stream.finish(usage);
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
  toCanonical: (call) => responsesToChat(call.json ?? {}) as unknown as Record<string, unknown>,
  fromCanonical: (answer, call) => chatToResponses(answer as unknown as ChatCompletion, { ...call.json, model: call.model }) as unknown as Record<string, unknown>,
  streamEncoder: (call) => new ResponsesChunkEncoder(call),
  streamMeter: (call) => new ResponsesPassthroughMeter(call),
  usageFromJson: (body) => responsesUsageFromJson(body),
  errorBody: (err) => openAIErrorBody(err),
};
