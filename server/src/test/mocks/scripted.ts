import type http from 'node:http';
import { type PlainRequest, type RecordingServer, sendJson, startRecordingServer } from './local-server.js';

/*
 * An upstream that answers what a test scripts, in any wire format: each call takes the next scripted answer (or the
 * default one), JSON or SSE, and every request is recorded with its path, query, headers and parsed body. For tests
 * that check what a converted request looks like upstream and how a chosen answer comes back to the client.
 */

export interface ScriptedAnswer {
  status?: number;
  /** A JSON answer. */
  json?: unknown;
  /** An SSE answer: each entry is one event's data (written as `data: …`), or a whole frame when it ends with \n\n. */
  sse?: Array<string | object>;
  headers?: Record<string, string>;
}

export interface ScriptedUpstream extends RecordingServer {
  /** Answers for the coming calls, in order. */
  next: ScriptedAnswer[];
  /** The answer when `next` is empty. */
  fallback: (req: PlainRequest) => ScriptedAnswer;
  /** The parsed body of the last request. */
  last(): Record<string, unknown>;
}

function frame(event: string | object): string {
  if (typeof event === 'string' && event.endsWith('\n\n')) return event;
  return `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`;
}

/** The bytes of a scripted SSE answer. */
export function sseText(events: Array<string | object>): string {
  return events.map(frame).join('');
}

function answer(res: http.ServerResponse, a: ScriptedAnswer): void {
  if (a.sse) {
    res.writeHead(a.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...a.headers });
    res.end(sseText(a.sse));
    return;
  }
  sendJson(res, a.status ?? 200, JSON.stringify(a.json ?? {}), a.headers);
}

export async function startScriptedUpstream(fallback: ScriptedUpstream['fallback'] = () => ({ status: 500, json: { error: 'no scripted answer' } })): Promise<ScriptedUpstream> {
  const mock = { next: [] as ScriptedAnswer[], fallback } as ScriptedUpstream;
  const server = await startRecordingServer(async (req, res) => answer(res, mock.next.shift() ?? mock.fallback(req)));
  return Object.assign(mock, server, {
    last: () => {
      const req = server.requests.at(-1);
      if (!req?.json) throw new Error('no JSON request recorded');
      return req.json;
    },
  });
}

/** A Claude Messages answer. */
export function claudeAnswer(content: unknown[], opts: { stop?: string; usage?: Record<string, unknown>; model?: string } = {}) {
  return {
    id: 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model: opts.model ?? 'claude-scripted',
    content,
    stop_reason: opts.stop ?? 'end_turn',
    stop_sequence: null,
    usage: opts.usage ?? { input_tokens: 11, output_tokens: 7 },
  };
}

/** Claude's stream of the same answer: message_start, each block streamed, message_delta, message_stop. */
export function claudeEvents(content: Array<Record<string, unknown>>, opts: { stop?: string; usage?: Record<string, number> } = {}): string[] {
  const usage = opts.usage ?? { input_tokens: 11, output_tokens: 7 };
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const out = [ev('message_start', { message: { ...claudeAnswer([], { usage: { input_tokens: usage.input_tokens, output_tokens: 1 } }), stop_reason: null } })];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      const text = String(block.text);
      const half = Math.ceil(text.length / 2);
      for (const piece of [text.slice(0, half), text.slice(half)]) if (piece) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    } else if (block.type === 'thinking') {
      out.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      out.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } }));
      out.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }));
    } else if (block.type === 'tool_use') {
      out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      for (const piece of [json.slice(0, half), json.slice(half)]) out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
    }
    out.push(ev('content_block_stop', { index }));
  });
  out.push(ev('message_delta', { delta: { stop_reason: opts.stop ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  out.push(ev('message_stop', {}));
  return out;
}

/** A Gemini generateContent answer with one candidate. */
export function geminiAnswer(parts: unknown[], opts: { finish?: string; usage?: Record<string, number>; extra?: Record<string, unknown> } = {}) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: opts.finish ?? 'STOP', index: 0, ...opts.extra }],
    usageMetadata: opts.usage ?? { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 },
    modelVersion: 'gemini-scripted',
    responseId: 'scripted',
  };
}

/** An OpenAI chat completion. */
export function chatAnswer(message: Record<string, unknown>, opts: { finish?: string; usage?: Record<string, number>; choice?: Record<string, unknown> } = {}) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: opts.finish ?? 'stop', ...opts.choice }],
    usage: opts.usage ?? { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
  };
}
