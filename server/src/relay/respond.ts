import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { upstreamError } from './errors.js';
import type { ChunkEncoder, StreamMeter } from './formats/client.js';
import { UPSTREAM_CUT, type StreamCut } from './formats/passthrough-meter.js';
import { canonicalForCounting } from './formats/index.js';
import type { ChatChunk, ChatUsage } from './formats/openai/chat.js';
import { chatUsageOf, completionText, readUsage } from './formats/openai/usage.js';
import { audioPromptTokens } from './audio-duration.js';
import { relayedMediaHeaders, sandboxedAnswerHeaders } from './relayed-media.js';
import { countChatPromptTokens, countInputTokens, countTextTokens, IncrementalCounter } from './tokenizer.js';
import type { ChunkDecoder, ClientCall, Usage } from './types.js';
import type { BodyEnd, StreamedResponse, WholeAnswer } from './upstream.js';

/** Tokens added per tool call on top of its text (the established gateway's estimate). */
const TOKENS_PER_TOOL_CALL = 7;

const usageOfChat = (u: ChatUsage): Usage => readUsage(u) ?? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };

/*
 * Delivering a successful upstream answer to the client while measuring it. Streams are written through as
 * events complete, with backpressure; nothing is buffered beyond one event.
 */

export interface Delivery {
  usage: Usage;
  /** ms from the start of the call to the first generated token (streams), else to the answer. */
  firstTokenAt: number;
  /** The client was still there at the end. */
  completed: boolean;
  /** Extra facts for the log (e.g. that usage was counted here, or the answer was cut). */
  note: string;
  /** Images a converted image answer carries (an upstream may make fewer than asked): what the call is charged for. */
  images?: number;
}

const EMPTY = Buffer.alloc(0);

/**
 * Settles the call with what was delivered. Called once, right before the answer's last bytes are written (or when
 * the client has gone), and answers where those bytes go: a process killed after the client has the whole answer
 * has the settlement journaled already.
 */
export type Ending = (delivery: Delivery) => AfterJournal;
/** Runs the answer's last write once its settlement is journaled (settler.ts: whenJournaled). */
export type AfterJournal = (lastWrite: () => void) => void;

const PASS_HEADERS = ['content-type', 'openai-processing-ms', 'x-request-id', 'request-id'];

function copyHeaders(res: { headers: IncomingHttpHeaders }, out: Record<string, string> = {}): Record<string, string> {
  for (const name of PASS_HEADERS) {
    const v = res.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

/** Prompt tokens counted here, for answers that came without usage (on the canonical request). */
export function countPromptTokens(call: ClientCall): number {
  if (call.audioSeconds !== undefined) return audioPromptTokens(call.audioSeconds);
  const b = call.format === 'openai' ? call.json : canonicalForCounting(call);
  if (!b) return call.raw ? countTextTokens(call.raw.toString('utf8'), call.model) : 0;
  switch (call.mode) {
    case 'chat':
      return countChatPromptTokens(b, call.model);
    case 'completions':
      return countInputTokens(b.prompt, call.model);
    case 'embeddings':
    case 'moderations':
      return countInputTokens(b.input, call.model);
    case 'rerank':
      return countInputTokens(b.query, call.model) + countInputTokens(b.documents, call.model);
    case 'speech':
      return typeof b.input === 'string' ? b.input.length : 0;
    default:
      return 0;
  }
}

let clientStallMs = 60_000;

/** CLIENT_STALL_TIMEOUT: how long a client may leave a streamed answer unread before the call ends as if it left. */
export function setClientStallTimeout(ms: number): void {
  clientStallMs = ms;
}

/**
 * Writes a streamed body to the client as it arrives: `write` turns each upstream chunk into bytes for the client;
 * when the client's socket is full the upstream is paused until it drains, so a slow reader holds at most the
 * socket's buffers of an answer, never the answer. A client that reads nothing for CLIENT_STALL_TIMEOUT (gone
 * without closing, or stuck) is cut off: its 'close' ends the call as a client that left. Resolves with how the
 * body ended.
 */
function pump(res: StreamedResponse, raw: ServerResponse, clientGone: () => boolean, write: (chunk: Buffer) => Buffer | string): Promise<BodyEnd> {
  let stalled: NodeJS.Timeout | null = null;
  const onDrain = () => {
    if (stalled) {
      clearTimeout(stalled);
      stalled = null;
    }
    res.resume();
  };
  raw.on('drain', onDrain);
  return res
    .consume((chunk) => {
      if (clientGone()) return false;
      const bytes = write(chunk);
      if (bytes.length === 0 || raw.write(bytes)) return true;
      stalled ??= setTimeout(() => raw.destroy(), clientStallMs);
      return false;
    })
    .finally(() => {
      if (stalled) clearTimeout(stalled);
      raw.off('drain', onDrain);
    });
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

const CUT_NOTE = '上游中断，按已生成内容计费';
const UNREPORTED_NOTE = '上游未返回用量，本地计算';
const GONE_NOTE = '客户端断开，按已生成内容计费';
const STOPPED_NOTE = '服务关闭时中止，按已生成内容计费';

/**
 * Usage of a stream whose upstream never reported it whole: the prompt side as the upstream said it before it
 * stopped (Claude's message_start), which beats a count made here; the output as counted from what went by.
 */
function unreportedUsage(call: ClientCall, partial: Usage | null | undefined, completionTokens: number): Usage {
  return {
    promptTokens: partial?.promptTokens ?? countPromptTokens(call),
    completionTokens,
    cachedTokens: partial?.cachedTokens ?? 0,
    cacheCreationTokens: partial?.cacheCreationTokens,
    cacheCreation1hTokens: partial?.cacheCreation1hTokens,
  };
}

/** What the log says of usage counted here. */
function unreportedNote(cut: StreamCut | null, completed: boolean): string {
  if (cut) return cut === UPSTREAM_CUT ? CUT_NOTE : STOPPED_NOTE;
  return completed ? UNREPORTED_NOTE : GONE_NOTE;
}

/**
 * What the client of a stream that ended early (end 'failed' while it was still there) is told: the call's own reason
 * when the gateway stopped it (shutdown), else that the upstream broke off.
 */
function cutOf(end: BodyEnd, clientGone: () => boolean, stopped: () => StreamCut | null): StreamCut | null {
  if (end !== 'failed' || clientGone()) return null;
  return stopped() ?? UPSTREAM_CUT;
}

/** A same-format stream: bytes go through as events complete (adapted from the transport's framing if needed). */
export async function deliverStream(
  call: ClientCall,
  res: StreamedResponse,
  out: ServerResponse,
  ending: Ending,
  clientGone: () => boolean,
  stopped: () => StreamCut | null,
  meter: StreamMeter,
  adapt?: (chunk: Buffer) => Buffer,
): Promise<Delivery> {
  out.writeHead(200, meter.headers ?? SSE_HEADERS);
  const end = await pump(res, out, clientGone, adapt ? (chunk) => meter.push(adapt(chunk)) : (chunk) => meter.push(chunk));
  // The upstream went away or went silent past STREAMING_TIMEOUT (or the call was stopped); the client keeps what it got.
  const cut = cutOf(end, clientGone, stopped);
  const completed = !clientGone();
  // The rest of the upstream's bytes first: usage may still be in them.
  let rest = completed ? meter.finish(cut !== null, cut ?? undefined) : EMPTY;
  const usage = meter.usage ?? unreportedUsage(call, meter.partialUsage?.(), meter.counted());
  const note = meter.usage ? (cut && cut !== UPSTREAM_CUT ? STOPPED_NOTE : '') : unreportedNote(cut, completed);
  const delivery: Delivery = { usage, firstTokenAt: meter.firstTokenAt, completed, note };
  const afterJournal = ending(delivery);
  if (completed) {
    if (!cut && meter.close) rest = Buffer.concat([rest, meter.close(usage)]);
    afterJournal(() => out.end(rest.length > 0 ? rest : undefined));
  }
  return delivery;
}

/** Output of canonical chunks, counted in case the upstream never reports usage. */
class ChunkTally {
  usage: ChatUsage | null = null;
  firstTokenAt = 0;
  private readonly counter: IncrementalCounter;
  private readonly toolCalls = new Set<string>();

  constructor(model: string) {
    this.counter = new IncrementalCounter(model);
  }

  add(chunk: ChatChunk): void {
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const d = choice.delta ?? {};
      const before = this.firstTokenAt;
      if (typeof d.content === 'string') this.counter.add(d.content);
      if (typeof d.reasoning_content === 'string') this.counter.add(d.reasoning_content);
      for (const tc of d.tool_calls ?? []) {
        const key = `${choice.index}:${tc.index}`;
        if (!this.toolCalls.has(key)) {
          this.toolCalls.add(key);
          this.counter.addTokens(TOKENS_PER_TOOL_CALL);
        }
        if (tc.function?.name) this.counter.add(tc.function.name);
        if (tc.function?.arguments) this.counter.add(tc.function.arguments);
      }
      if (!before && (d.content || d.reasoning_content || d.tool_calls?.length)) this.firstTokenAt = Date.now();
    }
  }

  counted(): number {
    return this.counter.total();
  }
}


/** A stream of another wire format: decoded to canonical chunks and encoded in the client's format as it comes. */
export async function deliverConvertedStream(
  call: ClientCall,
  res: StreamedResponse,
  out: ServerResponse,
  ending: Ending,
  clientGone: () => boolean,
  stopped: () => StreamCut | null,
  codec: { decoder: ChunkDecoder; encoder: ChunkEncoder; adapt?: (chunk: Buffer) => Buffer; beforeEnd?: BeforeEnd },
): Promise<Delivery> {
  const { decoder, encoder, adapt, beforeEnd } = codec;
  const tally = new ChunkTally(call.model);
  const encode = (chunks: ChatChunk[]): string => {
    let text = '';
    for (const c of chunks) {
      tally.add(c);
      text += encoder.push(c);
    }
    return text;
  };
  out.writeHead(200, encoder.headers ?? SSE_HEADERS);
  const end = await pump(res, out, clientGone, (chunk) => {
    // A decoder that met the upstream's error event takes nothing more: the stream is closed with the error below.
    if (decoder.failure) return '';
    const text = encode(decoder.push(adapt ? adapt(chunk) : chunk));
    if (decoder.failure) res.cancel();
    return text;
  });
  const cut = decoder.failure ? null : cutOf(end, clientGone, stopped);
  if (!cut && !clientGone() && !decoder.failure) {
    const rest = encode(decoder.finish());
    if (rest && !clientGone()) out.write(rest);
  }
  const completed = !clientGone();
  const usage = tally.usage ? usageOfChat(tally.usage) : unreportedUsage(call, decoder.partialUsage?.(), tally.counted());
  const note = tally.usage ? (cut && cut !== UPSTREAM_CUT ? STOPPED_NOTE : '') : unreportedNote(cut, completed);
  const delivery: Delivery = { usage, firstTokenAt: tally.firstTokenAt, completed, note };
  const afterJournal = ending(delivery);
  if (completed) {
    const failure = decoder.failure;
    if (failure) afterJournal(() => out.end(encoder.error(502, failure.message)));
    else if (cut) afterJournal(() => out.end(encoder.error(cut.status, cut.message)));
    else {
      const closing = encoder.finish(chatUsageOf(usage));
      if (beforeEnd) await beforeEnd();
      afterJournal(() => out.end(closing));
    }
  }
  return delivery;
}

/**
 * Work the answer's last bytes wait for, once the client's answer is made (a Responses turn is written where every
 * worker reads it before the client can send the next turn).
 */
export type BeforeEnd = () => Promise<void>;

/** An upstream answer that cannot be read: refused (502) before any of it reaches the client, and not billed. */
const unreadableAnswer = () => upstreamError(502, '上游返回的内容无法解析', 'bad_upstream_response');

/**
 * Same-format JSON answers (chat, completions, embeddings, moderations, rerank, images, transcriptions). When no
 * usage came, the answer is read as canonical (decode) to count what it generated; when it then is not JSON at all
 * (and its kind of call always answers JSON), it is refused as a converted answer would be, rather than reaching the
 * client as a 200 it cannot parse and being billed by its text.
 */
export function deliverJson(
  call: ClientCall,
  res: WholeAnswer,
  out: ServerResponse,
  ending: Ending,
  read: { usage: (body: Buffer) => Usage | null; decode?: (body: Buffer) => Record<string, unknown> },
): Delivery {
  const { body } = res;
  // Only the usage object is parsed, unless the answer must be counted here.
  const usage = read.usage(body);
  let answer: Record<string, unknown> | null = null;
  if (!usage) {
    try {
      answer = read.decode ? read.decode(body) : parseObject(body);
    } catch {
      answer = null;
    }
    if (!answer && answersJson(call) && !parseObject(body)) throw unreadableAnswer();
  }
  const firstTokenAt = Date.now();
  // A transcript (text, SRT, VTT) keeps its type, opened in a sandbox: its text is whatever the audio said.
  const served = answersJson(call) ? { 'content-length': String(body.length) } : { 'content-length': String(body.length), ...sandboxedAnswerHeaders() };
  const delivery: Delivery = usage
    ? { usage, firstTokenAt, completed: true, note: '' }
    : { usage: countedUsage(call, answer ?? { text: body.toString('utf8') }), firstTokenAt, completed: true, note: UNREPORTED_NOTE };
  const afterJournal = ending(delivery);
  out.writeHead(res.statusCode, copyHeaders(res, served));
  afterJournal(() => out.end(body));
  return delivery;
}

/** Speech-to-text may answer plain text, SRT or VTT; every other JSON call answers a JSON object. */
const answersJson = (call: ClientCall) => call.mode !== 'transcriptions' && call.mode !== 'translations';

/** An answer of another wire format: decoded to the canonical answer, then written in the client's format. */
export function deliverConvertedJson(
  call: ClientCall,
  res: WholeAnswer,
  out: ServerResponse,
  ending: Ending,
  convert: { decode: (body: Buffer) => Record<string, unknown>; encode: (answer: Record<string, unknown>) => Record<string, unknown>; beforeEnd?: BeforeEnd },
): Delivery | Promise<Delivery> {
  const firstTokenAt = Date.now();
  let answer: Record<string, unknown>;
  try {
    answer = convert.decode(res.body);
  } catch {
    throw unreadableAnswer();
  }
  const reported = readUsage(answer.usage);
  const usage = reported ?? countedUsage(call, answer);
  if (!reported && call.mode === 'chat') answer.usage = chatUsageOf(usage);
  const bytes = Buffer.from(JSON.stringify(convert.encode(answer)));
  const delivery: Delivery = { usage, firstTokenAt, completed: true, note: reported ? '' : UNREPORTED_NOTE };
  if (call.mode === 'images' && Array.isArray(answer.data)) delivery.images = answer.data.length;
  const send = () => {
    const afterJournal = ending(delivery);
    out.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
    afterJournal(() => out.end(bytes));
    return delivery;
  };
  return convert.beforeEnd ? convert.beforeEnd().then(send) : send();
}

function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Usage counted here from a canonical answer (or its raw text) and the request. */
function countedUsage(call: ClientCall, answer: Record<string, unknown>): Usage {
  // Speech-to-text is billed on the length of the audio; the text it returns is not charged again.
  if (call.audioSeconds !== undefined) return { promptTokens: countPromptTokens(call), completionTokens: 0, cachedTokens: 0 };
  const out = typeof answer.text === 'string' && !answer.choices ? { text: answer.text, toolCalls: 0 } : completionText(answer);
  return {
    promptTokens: countPromptTokens(call),
    completionTokens: countTextTokens(out.text, call.model) + out.toolCalls * TOKENS_PER_TOOL_CALL,
    cachedTokens: 0,
  };
}

/** Binary answers (speech): piped through as they come, served as audio only (relayed-media.ts). */
export async function deliverBinary(call: ClientCall, res: StreamedResponse, out: ServerResponse, ending: Ending, clientGone: () => boolean): Promise<Delivery> {
  out.writeHead(res.statusCode, { ...copyHeaders(res), ...relayedMediaHeaders(res.headers['content-type'], 'audio') });
  const firstTokenAt = Date.now();
  // A cut upstream: the client keeps what it got.
  await pump(res, out, clientGone, (chunk) => chunk);
  const completed = !clientGone();
  const delivery: Delivery = { usage: { promptTokens: countPromptTokens(call), completionTokens: 0, cachedTokens: 0 }, firstTokenAt, completed, note: '' };
  const afterJournal = ending(delivery);
  if (completed) afterJournal(() => out.end());
  return delivery;
}
