import type { ClientCall } from '../../types.js';
import type { ClientFormatModule, StreamMeter } from '../client.js';
import type { ChatCompletion } from '../openai/chat.js';
import { claudeErrorBody, claudeErrorObject } from './errors.js';
import { chatToClaude, ChatToClaudeStream } from './from-chat.js';
import { claudeSse } from './from-chat-stream.js';
import { ClaudeStreamMeter } from './meter.js';
import { WholeEvents } from '../sse-events.js';
import { claudeToChat } from './to-chat.js';
import type { ClaudeRequest } from './types.js';
import { claudeUsageFromJson } from './usage.js';

/** What the converted path also tells a Claude client whose upstream stopped mid-answer. */
const CUT_MESSAGE = '上游连接中断';

/**
 * Claude's stream passed through byte for byte (thinking signatures survive), read on the side. Only whole events
 * are forwarded, so when the upstream stops before message_stop the client gets no half event but an error event,
 * the way Anthropic reports a failure after the 200 (and the way a converted stream ends in the same case).
 */
class ClaudePassthroughMeter implements StreamMeter {
  private readonly meter: ClaudeStreamMeter;
  private readonly events = new WholeEvents();

  constructor(call: ClientCall) {
    this.meter = new ClaudeStreamMeter(call.model);
  }

  get usage() {
    return this.meter.usage;
  }

  get firstTokenAt() {
    return this.meter.firstTokenAt;
  }

  push(chunk: Buffer): Buffer {
    this.meter.push(chunk);
    return this.events.push(chunk);
  }

  finish(cut: boolean): Buffer {
    this.meter.finish();
    // An upstream that ended cleanly but without a last blank line keeps its bytes; a cut one loses its half event.
    if (!cut && (this.meter.sawStop || this.meter.error)) return this.events.take();
    return Buffer.from(claudeSse(claudeErrorObject(502, CUT_MESSAGE)));
  }

  partialUsage() {
    const billed = this.meter.billedUsage();
    return billed.promptTokens > 0 ? { ...billed, completionTokens: 0 } : null;
  }

  counted(): number {
    return this.meter.counted();
  }
}

export const claudeClient: ClientFormatModule = {
  format: 'claude',
  toCanonical: (call) => claudeToChat(call.json as unknown as ClaudeRequest) as unknown as Record<string, unknown>,
  fromCanonical: (answer, call) => chatToClaude(answer as unknown as ChatCompletion, call.model) as unknown as Record<string, unknown>,
  streamEncoder: (call, promptEstimate) => new ChatToClaudeStream(call.model, promptEstimate),
  streamMeter: (call) => new ClaudePassthroughMeter(call),
  usageFromJson: (body) => claudeUsageFromJson(body),
  errorBody: (err) => claudeErrorBody(err.status, err.message),
};
