import { getStoredUser } from '../../lib/storage';

/*
 * The playground's call: POST /pg/chat/completions with the console session, read as OpenAI chat chunks. The answer
 * ends on [DONE], on a chunk with an empty choices list, or when the connection closes; an error the server sends
 * (as the answer, or inside the stream) ends it as an error carrying the server's text.
 */

export type StreamEnd =
  | { kind: 'complete' }
  | { kind: 'error'; message: string }
  /** The session is gone: the console signs in again. */
  | { kind: 'unauthorized' };

/** Text a chunk adds to the answer and to the model's reasoning. */
export type DeltaHandler = (content: string, reasoning: string) => void;

/** The data of SSE events, line by line, across network chunk boundaries. */
export class SseDataLines {
  private rest = '';

  push(text: string): string[] {
    const lines = (this.rest + text).split('\n');
    this.rest = lines.pop() ?? '';
    const out: string[] = [];
    for (const line of lines) {
      const data = dataOf(line);
      if (data !== null) out.push(data);
    }
    return out;
  }

  /** What the stream's last, unterminated line held. */
  finish(): string[] {
    const data = dataOf(this.rest);
    this.rest = '';
    return data === null ? [] : [data];
  }
}

function dataOf(line: string): string | null {
  const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
  return clean.startsWith('data:') ? clean.slice(5).trimStart() : null;
}

interface Chunk {
  choices?: Array<{ delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } }>;
  error?: { message?: unknown } | string;
}

/** The text of an error body in OpenAI's shape (or whatever came, as it came). */
export function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as Chunk;
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (error && typeof error.message === 'string' && error.message) return error.message;
  } catch {
    // not JSON: the text itself
  }
  return body;
}

type Step = { end: StreamEnd | null; started: boolean };

/** One event's data: the text it adds, and whether it ends the answer. */
export function readEvent(data: string, started: boolean, onDelta: DeltaHandler): Step {
  if (data === '[DONE]') return { end: { kind: 'complete' }, started };
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    return { end: null, started };
  }
  if (chunk.error) return { end: { kind: 'error', message: errorText(data) }, started };
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return { end: null, started };
  // A leading chunk with no choices (Azure's prompt filter results) precedes the answer rather than ending it.
  if (choices.length === 0) return { end: started ? { kind: 'complete' } : null, started };
  const delta = choices[0]?.delta;
  const content = typeof delta?.content === 'string' ? delta.content : '';
  const reasoning = typeof delta?.reasoning_content === 'string' ? delta.reasoning_content : typeof delta?.reasoning === 'string' ? delta.reasoning : '';
  if (content || reasoning) onDelta(content, reasoning);
  return { end: null, started: true };
}

/** Reads an event stream to its end. */
export async function readChatStream(body: ReadableStream<Uint8Array>, onDelta: DeltaHandler): Promise<StreamEnd> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = new SseDataLines();
  let started = false;
  for (;;) {
    const { done, value } = await reader.read();
    const events = done ? [...lines.push(decoder.decode()), ...lines.finish()] : lines.push(decoder.decode(value, { stream: true }));
    for (const data of events) {
      const step = readEvent(data, started, onDelta);
      started = step.started;
      if (step.end) {
        if (!done) void reader.cancel().catch(() => undefined);
        return step.end;
      }
    }
    if (done) return { kind: 'complete' };
  }
}

/** Sends the conversation and streams the answer into onDelta; rejects with an AbortError when signal aborts. */
export async function streamChat(body: Record<string, unknown>, signal: AbortSignal, onDelta: DeltaHandler): Promise<StreamEnd> {
  const user = getStoredUser();
  const res = await fetch('/pg/chat/completions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'New-Api-User': user ? String(user.id) : '-1' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  if (res.status === 401) return { kind: 'unauthorized' };
  if (!res.ok) return { kind: 'error', message: errorText(await res.text()) || `HTTP ${res.status}` };
  if (!res.body) return { kind: 'complete' };
  return readChatStream(res.body, onDelta);
}
