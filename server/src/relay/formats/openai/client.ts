import type { ClientCall, Usage } from '../../types.js';
import type { ChunkEncoder, ClientFormatModule } from '../client.js';
import { PassthroughMeter, UPSTREAM_CUT, type StreamCut } from '../passthrough-meter.js';
import type { ChatChunk, ChatUsage } from './chat.js';
import { openAIErrorBody, openAIErrorType } from './errors.js';
import { OpenAIStreamMeter } from './stream.js';
import { chatUsageOf, usageFromJsonBytes } from './usage.js';
import { openAIPromptTexts } from './prompt-text.js';

const DONE_TEXT = 'data: [DONE]\n\n';
const DONE = Buffer.from(DONE_TEXT);
const DONE_LINE = 'data: [DONE]';

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const CHUNK_KEYS = ['id', 'object', 'created', 'model', 'choices'];

const CHOICE_KEYS = ['index', 'delta', 'finish_reason'];

/**
 * JSON.stringify(choices), with the choice nearly every chunk of a converted stream is — one text piece of choice 0,
 * unfinished — written from a template (the same bytes): serialising it whole was the encoder's largest cost.
 */
function choicesJson(choices: ChatChunk['choices']): string {
  if (choices.length !== 1) return JSON.stringify(choices);
  const choice = choices[0]!;
  if (choice.index !== 0 || choice.finish_reason !== null) return JSON.stringify(choices);
  let keys = 0;
  for (const key in choice) if (key !== CHOICE_KEYS[keys++]) return JSON.stringify(choices);
  const delta = choice.delta;
  let deltaKeys = 0;
  for (const key in delta) if (key !== 'content' || ++deltaKeys > 1) return JSON.stringify(choices);
  if (keys !== CHOICE_KEYS.length || deltaKeys !== 1 || typeof delta.content !== 'string') return JSON.stringify(choices);
  return `[{"index":0,"delta":{"content":${JSON.stringify(delta.content)}},"finish_reason":null}]`;
}

/** Canonical chunks from another wire, sent as OpenAI's stream; usage only when the client asked for it. */
class OpenAIChunkEncoder implements ChunkEncoder {
  private readonly last: Pick<ChatChunk, 'id' | 'created' | 'model'> = { id: '', created: 0, model: '' };
  private usageSent = false;
  private head = { id: '', created: NaN, model: '', text: '' };

  constructor(private readonly call: ClientCall) {}

  push(chunk: ChatChunk): string {
    const last = this.last;
    last.id = chunk.id;
    last.created = chunk.created;
    last.model = chunk.model || this.call.model;
    // Most chunks carry no usage: written as they are, without the copy below.
    if (chunk.usage === undefined) return chunk.choices.length === 0 ? '' : this.event(chunk);
    const { usage, ...rest } = chunk;
    if (rest.choices.length === 0) return '';
    if (usage && this.call.clientWantsStreamUsage) {
      this.usageSent = true;
      (rest as ChatChunk).usage = usage;
    }
    return event(rest);
  }

  /**
   * event(chunk), with the part a stream repeats on every chunk (id, object, created, model) serialised once: the
   * converters' chunks have exactly those keys, in that order, before `choices`. Any other shape is serialised whole.
   */
  private event(chunk: ChatChunk): string {
    let keys = 0;
    for (const key in chunk) {
      if (key !== CHUNK_KEYS[keys++]) return event(chunk);
    }
    if (keys !== CHUNK_KEYS.length || typeof chunk.id !== 'string' || typeof chunk.model !== 'string' || typeof chunk.created !== 'number') return event(chunk);
    if (chunk.object !== 'chat.completion.chunk') return event(chunk);
    if (chunk.id !== this.head.id || chunk.created !== this.head.created || chunk.model !== this.head.model) {
      const text = `data: {"id":${JSON.stringify(chunk.id)},"object":"chat.completion.chunk","created":${JSON.stringify(chunk.created)},"model":${JSON.stringify(chunk.model)},"choices":`;
      this.head = { id: chunk.id, created: chunk.created, model: chunk.model, text };
    }
    return `${this.head.text}${choicesJson(chunk.choices)}}\n\n`;
  }

  finish(usage: ChatUsage | undefined): string {
    let out = '';
    if (usage && this.call.clientWantsStreamUsage && !this.usageSent) {
      out += event({ id: this.last.id, object: 'chat.completion.chunk', created: this.last.created, model: this.last.model, choices: [], usage });
    }
    return `${out}data: [DONE]\n\n`;
  }

  error(status: number, message: string): string {
    return event({ error: { message, type: openAIErrorType(status), code: status } });
  }
}

/**
 * OpenAI's own stream passed through: the meter; a usage chunk counted here when the client asked for usage and the
 * upstream sent none; then [DONE], held back until the call is settled (or added when the upstream ended without it).
 */
class OpenAIPassthroughMeter extends PassthroughMeter<OpenAIStreamMeter> {
  constructor(private readonly call: ClientCall) {
    super(new OpenAIStreamMeter(call.model, !call.clientWantsStreamUsage));
  }

  /** The upstream's [DONE] is never forwarded as it comes: close() writes it once the call is settled. */
  override push(chunk: Buffer): Buffer {
    const before = this.meter.doneSent;
    return this.withoutDone(before, this.meter.push(chunk));
  }

  private withoutDone(sentBefore: boolean, out: Buffer): Buffer {
    return sentBefore || !this.meter.doneSent ? out : out.subarray(0, out.lastIndexOf(DONE_LINE));
  }

  finish(cut: boolean, reason: StreamCut = UPSTREAM_CUT): Buffer {
    const before = this.meter.doneSent;
    const rest = this.withoutDone(before, this.meter.finish());
    if (cut) return Buffer.from(event({ error: { message: reason.message, type: openAIErrorType(reason.status), code: reason.status } }));
    return rest;
  }

  close(usage: Usage): Buffer {
    if (this.meter.usage || !this.call.clientWantsStreamUsage) return DONE;
    const { id, created, model } = this.meter.streamIdentity();
    return Buffer.from(event({ id, object: 'chat.completion.chunk', created, model: model || this.call.model, choices: [], usage: chatUsageOf(usage) }) + DONE_TEXT);
  }
}

export const openAIClient: ClientFormatModule = {
  format: 'openai',
  toCanonical: (call) => call.json ?? {},
  fromCanonical: (answer) => answer,
  streamEncoder: (call) => new OpenAIChunkEncoder(call),
  streamMeter: (call) => new OpenAIPassthroughMeter(call),
  usageFromJson: (body) => usageFromJsonBytes(body),
  errorBody: (err) => openAIErrorBody(err),
  promptTexts: openAIPromptTexts,
};
