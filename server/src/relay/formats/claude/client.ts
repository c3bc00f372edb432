import type { ClientCall } from '../../types.js';
import type { ClientFormatModule, StreamMeter } from '../client.js';
import type { ChatCompletion } from '../openai/chat.js';
import { claudeErrorBody } from './errors.js';
import { chatToClaude, ChatToClaudeStream } from './from-chat.js';
import { ClaudeStreamMeter } from './meter.js';
import { claudeToChat } from './to-chat.js';
import type { ClaudeRequest } from './types.js';
import { claudeUsageFromJson } from './usage.js';

const EMPTY = Buffer.alloc(0);

/** Claude's stream passed through byte for byte (thinking signatures survive), read on the side. */
class ClaudePassthroughMeter implements StreamMeter {
  private readonly meter: ClaudeStreamMeter;

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
    return this.meter.push(chunk);
  }

  finish(): Buffer {
    this.meter.finish();
    return EMPTY;
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
