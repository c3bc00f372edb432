import type { ClientCall } from '../../types.js';
import type { ClientFormatModule, StreamMeter } from '../client.js';
import type { ChatCompletion } from '../openai/chat.js';
import { claudeErrorBody, claudeErrorObject } from './errors.js';
import { chatToClaude, ChatToClaudeStream } from './from-chat.js';
import { claudeSse } from './from-chat-stream.js';
import { ClaudeStreamMeter } from './meter.js';
import { claudeToChat } from './to-chat.js';
import type { ClaudeRequest } from './types.js';
import { claudeUsageFromJson } from './usage.js';

const EMPTY = Buffer.alloc(0);
const LF = 0x0a;
const CR = 0x0d;
/** What the converted path also tells a Claude client whose upstream stopped mid-answer. */
const CUT_MESSAGE = '上游连接中断';

/** The end of the last whole SSE event in `buf` (after its blank line), 0 when none ended. */
function lastEventEnd(buf: Buffer): number {
  for (let i = buf.length - 1; i > 0; i--) {
    if (buf[i] !== LF) continue;
    if (buf[i - 1] === LF) return i + 1;
    if (buf[i - 1] === CR && i >= 3 && buf[i - 2] === LF && buf[i - 3] === CR) return i + 1;
  }
  return 0;
}

/**
 * Claude's stream passed through byte for byte (thinking signatures survive), read on the side. Only whole events
 * are forwarded, so when the upstream stops before message_stop the client gets no half event but an error event,
 * the way Anthropic reports a failure after the 200 (and the way a converted stream ends in the same case).
 */
class ClaudePassthroughMeter implements StreamMeter {
  private readonly meter: ClaudeStreamMeter;
  /** Bytes of an event not yet complete. */
  private held: Buffer = EMPTY;

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
    const buf = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    const end = lastEventEnd(buf);
    this.held = end < buf.length ? Buffer.from(buf.subarray(end)) : EMPTY;
    return end === buf.length ? buf : buf.subarray(0, end);
  }

  finish(): Buffer {
    this.meter.finish();
    // An upstream that ended cleanly but without a last blank line keeps its bytes; a cut one loses its half event.
    if (this.meter.sawStop || this.meter.error) return this.held;
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
