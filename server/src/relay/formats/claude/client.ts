import { estimateChatPromptTokens } from '../../tokenizer.js';
import type { ClientCall } from '../../types.js';
import type { ClientFormatModule } from '../client.js';
import type { ChatCompletion } from '../openai/chat.js';
import { claudeErrorBody, claudeErrorObject } from './errors.js';
import { chatToClaude, ChatToClaudeStream } from './from-chat.js';
import { claudeSse } from './from-chat-stream.js';
import { ClaudeStreamMeter } from './meter.js';
import { WholeEventsPassthroughMeter, type StreamCut } from '../passthrough-meter.js';
import { claudeToChat } from './to-chat.js';
import type { ClaudeRequest } from './types.js';
import { claudeUsageFromJson } from './usage.js';
import { claudePromptTexts } from './prompt-text.js';

/**
 * Claude's stream passed through byte for byte (thinking signatures survive), read on the side. Only whole events
 * are forwarded, so when the upstream stops before message_stop the client gets no half event but an error event,
 * the way Anthropic reports a failure after the 200 (and the way a converted stream ends in the same case).
 */
class ClaudePassthroughMeter extends WholeEventsPassthroughMeter<ClaudeStreamMeter> {
  constructor(call: ClientCall) {
    super(new ClaudeStreamMeter(call.model));
  }

  protected ended(): boolean {
    return this.meter.sawStop || this.meter.error !== null;
  }

  protected cutEvent(reason: StreamCut): string {
    return claudeSse(claudeErrorObject(reason.status, reason.message));
  }

  partialUsage() {
    const billed = this.meter.billedUsage();
    return billed.promptTokens > 0 ? { ...billed, completionTokens: 0 } : null;
  }
}

export const claudeClient: ClientFormatModule = {
  format: 'claude',
  toCanonical: (call) => claudeToChat(call.json as unknown as ClaudeRequest, (call.dropped = [])) as unknown as Record<string, unknown>,
  fromCanonical: (answer, call) => chatToClaude(answer as unknown as ChatCompletion, call.model) as unknown as Record<string, unknown>,
  // message_start must report input_tokens before the upstream says them: counted with the model family's vocabulary.
  // (A converted call was brought to the canonical shape before it went upstream.)
  streamEncoder: (call, promptEstimate) =>
    new ChatToClaudeStream(call.model, call.canonical ? estimateChatPromptTokens(call.canonical, call.model) : promptEstimate),
  streamMeter: (call) => new ClaudePassthroughMeter(call),
  usageFromJson: (body) => claudeUsageFromJson(body),
  errorBody: (err) => claudeErrorBody(err.status, err.message),
  promptTexts: claudePromptTexts,
};
