import type { FastifyReply } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { BufferedResponse } from './upstream.js';
import type { ClientCall, Usage } from './types.js';
import { OpenAIStreamMeter } from './formats/openai/stream.js';
import { completionText, usageFromJsonBytes } from './formats/openai/usage.js';
import { countChatPromptTokens, countInputTokens, countTextTokens } from './tokenizer.js';

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
}

const PASS_HEADERS = ['content-type', 'openai-processing-ms', 'x-request-id'];

function copyHeaders(res: { headers: IncomingHttpHeaders }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PASS_HEADERS) {
    const v = res.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

/** Prompt tokens counted here, for answers that came without usage. */
export function countPromptTokens(call: ClientCall): number {
  const b = call.json;
  if (!b) return 0;
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

function waitDrain(reply: FastifyReply): Promise<void> {
  return new Promise((resolve) => {
    const raw = reply.raw;
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}

export async function deliverStream(
  call: ClientCall,
  res: Dispatcher.ResponseData,
  reply: FastifyReply,
  clientGone: () => boolean,
): Promise<Delivery> {
  const meter = new OpenAIStreamMeter(call.model, !call.clientWantsStreamUsage);
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let cut = false;
  try {
    for await (const chunk of res.body) {
      if (clientGone()) break;
      const out = meter.push(chunk as Buffer);
      if (out.length > 0 && !reply.raw.write(out)) await waitDrain(reply);
    }
    if (!clientGone()) {
      const rest = meter.finish();
      if (rest.length > 0) reply.raw.write(rest);
    }
  } catch {
    // The upstream went away or went silent past STREAMING_TIMEOUT; the client keeps what it got.
    cut = !clientGone();
  }
  const completed = !clientGone();
  if (completed) {
    if (!meter.sawDone) reply.raw.write('data: [DONE]\n\n');
    reply.raw.end();
  } else {
    res.body.destroy();
  }
  const usage: Usage = meter.usage ?? {
    promptTokens: countPromptTokens(call),
    completionTokens: meter.counted(),
    cachedTokens: 0,
  };
  let note = '';
  if (!meter.usage) note = cut ? '上游中断，按已生成内容计费' : completed ? '上游未返回用量，本地计算' : '客户端断开，按已生成内容计费';
  return { usage, firstTokenAt: meter.firstTokenAt, completed, note };
}

/** JSON answers (chat, completions, embeddings, moderations, rerank, images, transcriptions). */
export async function deliverJson(call: ClientCall, res: BufferedResponse, reply: FastifyReply): Promise<Delivery & { body: Buffer }> {
  const body = await res.body();
  const firstTokenAt = Date.now();
  reply.hijack();
  reply.raw.writeHead(res.statusCode, { ...copyHeaders(res), 'content-length': String(body.length) });
  reply.raw.end(body);
  // Usage is read after the answer went out: only the usage object is parsed, unless it must be counted here.
  let usage = usageFromJsonBytes(body);
  let note = '';
  if (!usage) {
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    const out = parsed ? completionText(parsed) : { text: body.toString('utf8'), toolCalls: 0 };
    usage = {
      promptTokens: countPromptTokens(call),
      completionTokens: countTextTokens(out.text, call.model) + out.toolCalls * 7,
      cachedTokens: 0,
    };
    note = '上游未返回用量，本地计算';
  }
  return { usage, firstTokenAt, completed: true, note, body };
}

/** Binary answers (speech): piped through as they come. */
export async function deliverBinary(call: ClientCall, res: Dispatcher.ResponseData, reply: FastifyReply, clientGone: () => boolean): Promise<Delivery> {
  reply.hijack();
  reply.raw.writeHead(res.statusCode, copyHeaders(res));
  const firstTokenAt = Date.now();
  try {
    for await (const chunk of res.body) {
      if (clientGone()) break;
      if (!reply.raw.write(chunk)) await waitDrain(reply);
    }
  } catch {
    // cut upstream: the client keeps what it got
  }
  const completed = !clientGone();
  if (completed) reply.raw.end();
  else res.body.destroy();
  return { usage: { promptTokens: countPromptTokens(call), completionTokens: 0, cachedTokens: 0 }, firstTokenAt, completed, note: '' };
}
