import type { ChatChunk, ChatUsage } from '../openai/chat.js';
import { compactionItem, isCompactionRequest } from './compaction.js';
import { callItem, endingOf, requestModel, responseShell, responsesUsage } from './from-chat.js';
import { itemId, responseId } from './ids.js';
import { sealReasoning, wantsSealedReasoning } from './sealed-reasoning.js';
import { customInput, toolOrigins, type ToolOrigin } from './tool-names.js';
import type {
  ItemStatus,
  ResponseObject,
  ResponsesCustomToolCallItem,
  ResponsesFunctionCallItem,
  ResponsesMessageItem,
  ResponsesOutputItem,
  ResponsesReasoningItem,
  ResponsesStreamEvent,
} from './types.js';

type ToolDelta = NonNullable<ChatChunk['choices'][number]['delta']['tool_calls']>[number];
type Obj = Record<string, unknown>;

/**
 * The reasoning or message item being written: for reasoning the upstream's signatures of its thinking, for a
 * message the content part being written in it.
 */
type Open =
  | { kind: 'reasoning'; index: number; item: ResponsesReasoningItem; signatures: string[] }
  | { kind: 'message'; index: number; item: ResponsesMessageItem; part: number };
/** A call being written; a custom tool's stand-in arguments are kept whole in `args` until its input can be read. */
type Call = { index: number; item: ResponsesFunctionCallItem | ResponsesCustomToolCallItem; args: string };

/**
 * A ChatChunk stream as the Responses event stream: response.created and response.in_progress, then one output item
 * at a time — reasoning (summary text events), the message (output_text / refusal parts), function calls (argument
 * deltas) — each opened, filled and closed, then response.completed (or response.incomplete) carrying the whole
 * response with usage. The closing events wait for finish(): OpenAI-style upstreams send usage in a chunk after the
 * one carrying finish_reason. The answer is kept because the protocol repeats it whole in the closing events.
 *
 * Function calls stay open until the answer ends (or text resumes): a chat upstream may interleave the argument
 * deltas of parallel calls, and clients act on output_item.done, so it must never carry partial arguments. A call of
 * a custom tool's stand-in (tool-names.ts) is a custom_tool_call, its input sent whole when the call closes: the
 * upstream streams it as JSON-escaped text inside the stand-in's arguments.
 */
export class ChatToResponsesStream {
  private seq = 0;
  private started = false;
  private ended = false;
  private shell: ResponseObject | null = null;
  private readonly output: ResponsesOutputItem[] = [];
  private open: Open | null = null;
  /** chat tool_calls[].index -> the function_call item. */
  private readonly calls = new Map<number, Call>();
  private openCalls: Call[] = [];
  /** The custom and namespaced tools the request offers, read at the first call. */
  private origins: Map<string, ToolOrigin> | null = null;
  private finishReason: string | null = null;
  private usage: ChatUsage | null = null;
  /** The whole response as the closing event carried it, once finish() ran. */
  finished: ResponseObject | null = null;
  /** A compaction (compaction.ts): the text is the summary, sent as one compaction item when the answer ends. */
  private readonly compacting: boolean;
  private summary = '';
  /** The request asks for reasoning items to carry their thinking sealed (sealed-reasoning.ts). */
  private readonly sealing: boolean;

  /**
   * req is the client's Responses request (its settings are echoed); model is the name reported to the client; base
   * names the response and its items (ids.ts: newIdBase).
   */
  constructor(
    private readonly req: Obj,
    private readonly model: string,
    private readonly base: string,
  ) {
    this.compacting = isCompactionRequest(req);
    this.sealing = wantsSealedReasoning(req);
  }

  push(chunk: ChatChunk): string {
    if (this.ended) return '';
    let out = this.start(chunk.created);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return out;
    const d = choice.delta ?? {};
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    if (this.compacting) {
      if (d.content) this.summary += d.content;
      return out;
    }
    if (d.reasoning_content) out += this.reasoning(d.reasoning_content);
    if (d.reasoning_signature && this.sealing) out += this.signature(d.reasoning_signature);
    if (d.content) out += this.text('output_text', d.content);
    const refusal = (d as { refusal?: unknown }).refusal;
    if (typeof refusal === 'string' && refusal) out += this.text('refusal', refusal);
    for (const call of d.tool_calls ?? []) out += this.tool(call);
    return out;
  }

  /** The closing events. usage, when given, wins over what the stream carried (e.g. counted by the gateway). */
  finish(usage?: ChatUsage): string {
    if (this.ended) return '';
    let out = this.start(undefined);
    this.ended = true;
    const ending = endingOf(this.finishReason);
    const status = ending.status === 'completed' ? 'completed' : 'incomplete';
    out += this.closeOpen(status) + this.closeCalls(status);
    if (this.compacting) {
      const item = compactionItem(this.base, this.summary);
      out += this.addItem(item) + this.event({ type: 'response.output_item.done', output_index: 0, item });
    }
    const response: ResponseObject = { ...this.response(), ...ending, usage: responsesUsage(usage ?? this.usage) };
    this.finished = response;
    return out + this.event({ type: ending.status === 'completed' ? 'response.completed' : 'response.incomplete', response });
  }

  /**
   * A failure after the stream began: the documented error event, then response.failed as the terminal event with
   * what was produced so far (the item being written marked incomplete). Nothing follows.
   */
  error(message: string, code = 'server_error'): string {
    if (this.ended) return '';
    let out = this.start(undefined);
    this.ended = true;
    if (this.open?.kind === 'message') this.open.item.status = 'incomplete';
    for (const call of this.openCalls) {
      call.item.status = 'incomplete';
      if (call.item.type === 'custom_tool_call') call.item.input = customInput(call.args);
    }
    this.open = null;
    this.openCalls = [];
    out += this.event({ type: 'error', code, message, param: null });
    const response: ResponseObject = { ...this.response(), status: 'failed', error: { code, message }, usage: responsesUsage(this.usage) };
    return out + this.event({ type: 'response.failed', response });
  }

  private event(e: ResponsesStreamEvent): string {
    const { type, ...rest } = e;
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...rest })}\n\n`;
  }

  /** The response so far. Events are serialised as soon as they are made, so sharing the live items is safe. */
  private response(): ResponseObject {
    return { ...this.shell!, output: this.output };
  }

  private start(created: number | undefined): string {
    if (this.started) return '';
    this.started = true;
    const createdAt = typeof created === 'number' && created > 0 ? created : Math.floor(Date.now() / 1000);
    this.shell = responseShell(this.req, this.model || requestModel(this.req, ''), responseId(this.base), createdAt);
    return this.event({ type: 'response.created', response: this.response() }) + this.event({ type: 'response.in_progress', response: this.response() });
  }

  private addItem(item: ResponsesOutputItem): string {
    this.output.push(item);
    return this.event({ type: 'response.output_item.added', output_index: this.output.length - 1, item: item });
  }

  private reasoning(delta: string): string {
    let out = this.openReasoning();
    const { index, item } = this.open as Extract<Open, { kind: 'reasoning' }>;
    if (item.summary.length === 0) {
      item.summary.push({ type: 'summary_text', text: '' });
      out += this.event({ type: 'response.reasoning_summary_part.added', item_id: item.id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
    }
    item.summary[0].text += delta;
    return out + this.event({ type: 'response.reasoning_summary_text.delta', item_id: item.id, output_index: index, summary_index: 0, delta });
  }

  /** A signature of the thinking being written; one that comes with none written (Gemini's) opens its own item. */
  private signature(signature: string): string {
    const out = this.openReasoning();
    (this.open as Extract<Open, { kind: 'reasoning' }>).signatures.push(signature);
    return out;
  }

  private openReasoning(): string {
    if (this.open?.kind === 'reasoning') return '';
    const out = this.closeOpen('completed') + this.closeCalls('completed');
    const index = this.output.length;
    const item: ResponsesReasoningItem = { id: itemId('rs', this.base, index), type: 'reasoning', summary: [] };
    this.open = { kind: 'reasoning', index, item, signatures: [] };
    return out + this.addItem(item);
  }

  private text(kind: 'output_text' | 'refusal', delta: string): string {
    let out = '';
    if (this.open?.kind !== 'message') {
      out += this.closeOpen('completed') + this.closeCalls('completed');
      const index = this.output.length;
      const item: ResponsesMessageItem = { id: itemId('msg', this.base, index), type: 'message', status: 'in_progress', role: 'assistant', content: [] };
      out += this.addItem(item);
      this.open = { kind: 'message', index, item, part: -1 };
    }
    const open = this.open as Extract<Open, { kind: 'message' }>;
    if (open.item.content[open.part]?.type !== kind) {
      out += this.closePart(open);
      const part = kind === 'output_text' ? { type: kind, text: '', annotations: [], logprobs: [] } : { type: kind, refusal: '' };
      open.item.content.push(part);
      open.part = open.item.content.length - 1;
      out += this.event({ type: 'response.content_part.added', item_id: open.item.id, output_index: open.index, content_index: open.part, part: part });
    }
    const located = { item_id: open.item.id, output_index: open.index, content_index: open.part };
    const part = open.item.content[open.part];
    if (part.type === 'output_text') {
      part.text += delta;
      return out + this.event({ type: 'response.output_text.delta', ...located, delta, logprobs: [] });
    }
    part.refusal += delta;
    return out + this.event({ type: 'response.refusal.delta', ...located, delta });
  }

  private tool(call: ToolDelta): string {
    let out = '';
    const toolIndex = call.index ?? 0;
    let known = this.calls.get(toolIndex);
    if (!known) {
      out += this.closeOpen('completed');
      const index = this.output.length;
      const name = call.function?.name ?? '';
      this.origins ??= toolOrigins(this.req);
      const item = callItem(this.origins.get(name), name, call.id || `call_${this.base}_${index}`, this.base, index, 'in_progress', '') as Call['item'];
      out += this.addItem(item);
      known = { index, item, args: '' };
      this.calls.set(toolIndex, known);
      this.openCalls.push(known);
    } else if (!known.item.name && call.function?.name) {
      known.item.name = call.function.name;
    }
    const args = call.function?.arguments;
    if (!args) return out;
    known.args += args;
    if (known.item.type === 'custom_tool_call') return out;
    known.item.arguments = known.args;
    return out + this.event({ type: 'response.function_call_arguments.delta', item_id: known.item.id, output_index: known.index, delta: args });
  }

  private closePart(open: Extract<Open, { kind: 'message' }>): string {
    const part = open.item.content[open.part];
    if (!part) return '';
    const located = { item_id: open.item.id, output_index: open.index, content_index: open.part };
    const done =
      part.type === 'output_text'
        ? this.event({ type: 'response.output_text.done', ...located, text: part.text, logprobs: [] })
        : this.event({ type: 'response.refusal.done', ...located, refusal: part.refusal });
    return done + this.event({ type: 'response.content_part.done', ...located, part: part });
  }

  private closeOpen(status: ItemStatus): string {
    const open = this.open;
    if (!open) return '';
    this.open = null;
    let out = '';
    if (open.kind === 'reasoning') {
      const part = open.item.summary[0];
      if (part) {
        const located = { item_id: open.item.id, output_index: open.index, summary_index: 0 };
        out += this.event({ type: 'response.reasoning_summary_text.done', ...located, text: part.text });
        out += this.event({ type: 'response.reasoning_summary_part.done', ...located, part });
      }
      // A signature holds for its own block's text: thinking of several blocks run together cannot go back.
      if (open.signatures.length === 1) open.item.encrypted_content = sealReasoning({ text: part?.text ?? '', signature: open.signatures[0] });
    } else {
      out += this.closePart(open);
      open.item.status = status;
    }
    return out + this.event({ type: 'response.output_item.done', output_index: open.index, item: open.item });
  }

  private closeCalls(status: ItemStatus): string {
    let out = '';
    for (const { index, item, args } of this.openCalls) {
      const located = { item_id: item.id, output_index: index };
      if (item.type === 'custom_tool_call') {
        item.input = customInput(args);
        if (item.input) out += this.event({ type: 'response.custom_tool_call_input.delta', ...located, delta: item.input });
        out += this.event({ type: 'response.custom_tool_call_input.done', ...located, input: item.input });
      } else out += this.event({ type: 'response.function_call_arguments.done', ...located, name: item.name, arguments: item.arguments });
      item.status = status;
      out += this.event({ type: 'response.output_item.done', output_index: index, item: item });
    }
    this.openCalls = [];
    return out;
  }
}
