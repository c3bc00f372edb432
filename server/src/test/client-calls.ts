import { expect } from 'vitest';

/*
 * A relay call as a client of each format makes it (OpenAI chat, Claude Messages, Gemini generateContent), over
 * plain HTTP so the test sees exactly what a client would: status, body bytes, and how the stream ended. And what
 * each format documents a failure to look like, whole (an error body) or mid-stream (an error event).
 */

export type ClientFormat = 'openai' | 'claude' | 'gemini';

export interface ClientCallOptions {
  model: string;
  stream: boolean;
  /** The client's cap on the answer (max_tokens / maxOutputTokens); Claude always sends one (it is required). */
  maxTokens?: number;
  /** The client leaves after this many ms. */
  leaveAfterMs?: number;
  /** The client leaves as soon as this text has arrived. */
  leaveOnText?: string;
}

export interface ClientOutcome {
  /** 0 when the client left before the status line. */
  status: number;
  /** The body as far as it was read. */
  text: string;
  elapsedMs: number;
  /** The client left before the answer ended. */
  left: boolean;
}

/** What Claude clients send when the caller gives no cap of its own. */
const CLAUDE_DEFAULT_MAX_TOKENS = 1024;

function request(format: ClientFormat, key: string, o: ClientCallOptions): { path: string; headers: Record<string, string>; body: unknown } {
  const json = { 'content-type': 'application/json' };
  switch (format) {
    case 'openai':
      return {
        path: '/v1/chat/completions',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: { model: o.model, stream: o.stream, messages: [{ role: 'user', content: 'hi' }], ...(o.maxTokens ? { max_tokens: o.maxTokens } : {}) },
      };
    case 'claude':
      return {
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: { model: o.model, stream: o.stream, max_tokens: o.maxTokens ?? CLAUDE_DEFAULT_MAX_TOKENS, messages: [{ role: 'user', content: 'hi' }] },
      };
    case 'gemini':
      return {
        path: `/v1beta/models/${o.model}:${o.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...json, 'x-goog-api-key': key },
        body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...(o.maxTokens ? { generationConfig: { maxOutputTokens: o.maxTokens } } : {}) },
      };
  }
}

/** Makes one call and reads its answer to the end, or until the client leaves. Never throws for a failed call. */
export async function callAs(format: ClientFormat, baseUrl: string, key: string, o: ClientCallOptions): Promise<ClientOutcome> {
  const { path, headers, body } = request(format, key, o);
  const started = Date.now();
  const controller = new AbortController();
  const timer = o.leaveAfterMs !== undefined ? setTimeout(() => controller.abort(), o.leaveAfterMs) : null;
  let status = 0;
  let text = '';
  let left = false;
  try {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
    status = res.status;
    const reader = res.body!.getReader();
    const utf8 = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += utf8.decode(value, { stream: true });
      if (o.leaveOnText && text.includes(o.leaveOnText)) {
        controller.abort();
        left = true;
        break;
      }
    }
  } catch {
    left = controller.signal.aborted;
    if (!left) status = status || -1;
  } finally {
    if (timer) clearTimeout(timer);
  }
  return { status, text, elapsedMs: Date.now() - started, left };
}

export interface SseEvent {
  event?: string;
  data: string;
}

/** The events of an SSE body (LF or CRLF framing). */
export function sseEvents(text: string): SseEvent[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      return event === undefined ? { data } : { event, data };
    });
}

function parsed(data: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Checks a refusal against its format's documented error shape and returns the message:
 * OpenAI {error:{message,type}}, Claude {type:"error",error:{type,message}}, Gemini {error:{code,message,status}}.
 */
export function expectErrorBody(format: ClientFormat, status: number, text: string): string {
  const body = parsed(text);
  expect(body, `an error body in ${format}'s shape: ${text.slice(0, 300)}`).not.toBeNull();
  const error = body!.error as Record<string, unknown> | undefined;
  expect(error).toBeTypeOf('object');
  expect(error!.message).toBeTypeOf('string');
  if (format === 'openai') expect(error!.type).toBeTypeOf('string');
  if (format === 'claude') {
    expect(body!.type).toBe('error');
    expect(error!.type).toBeTypeOf('string');
  }
  if (format === 'gemini') {
    expect(error!.code).toBe(status);
    expect(error!.status).toMatch(/^[A-Z_]+$/);
  }
  return error!.message as string;
}

/** The error event a stream ended with, in its format's shape; null when it has none. */
export function streamErrorOf(format: ClientFormat, text: string): { message: string } | null {
  for (const e of sseEvents(text)) {
    const data = parsed(e.data);
    const error = data?.error as Record<string, unknown> | undefined;
    if (!error || typeof error.message !== 'string') continue;
    if (format === 'claude' && (e.event !== 'error' || data!.type !== 'error')) continue;
    if (format === 'gemini' && (typeof error.code !== 'number' || typeof error.status !== 'string')) continue;
    return { message: error.message };
  }
  return null;
}

/** Checks that a successful answer is whole in its format: a complete JSON answer, or a stream that reached its end. */
export function expectWholeAnswer(format: ClientFormat, stream: boolean, text: string): void {
  if (!stream) {
    const body = parsed(text);
    expect(body, `a whole ${format} answer: ${text.slice(0, 300)}`).not.toBeNull();
    if (format === 'openai') expect(body!.choices).toBeInstanceOf(Array);
    if (format === 'claude') expect(body!.type).toBe('message');
    if (format === 'gemini') expect(body!.candidates).toBeInstanceOf(Array);
    return;
  }
  expect(streamErrorOf(format, text), text.slice(-400)).toBeNull();
  const events = sseEvents(text);
  if (format === 'openai') expect(events.at(-1)?.data).toBe('[DONE]');
  if (format === 'claude') expect(events.at(-1)?.event).toBe('message_stop');
  if (format === 'gemini') expect(events.some((e) => /"finishReason"/.test(e.data))).toBe(true);
}

/** The answer text a stream delivered (OpenAI deltas, Claude text deltas, Gemini text parts), for partial answers. */
export function streamedText(format: ClientFormat, text: string): string {
  let out = '';
  for (const e of sseEvents(text)) {
    const d = parsed(e.data);
    if (!d) continue;
    if (format === 'openai') {
      const choices = d.choices as Array<{ delta?: { content?: string } }> | undefined;
      out += choices?.[0]?.delta?.content ?? '';
    } else if (format === 'claude') {
      const delta = d.delta as { type?: string; text?: string } | undefined;
      if (d.type === 'content_block_delta' && delta?.type === 'text_delta') out += delta.text ?? '';
    } else {
      const candidates = d.candidates as Array<{ content?: { parts?: Array<{ text?: string }> } }> | undefined;
      for (const p of candidates?.[0]?.content?.parts ?? []) out += p.text ?? '';
    }
  }
  return out;
}
