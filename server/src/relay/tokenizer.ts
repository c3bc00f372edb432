import { createRequire } from 'node:module';

/*
 * Offline token counting for when the upstream reports no usage. Encodings load on first use (o200k is a few MB),
 * so a gateway whose upstreams always report usage never pays for them.
 */

interface Encoder {
  countTokens(text: string): number;
}

const require = createRequire(import.meta.url);
const encoders = new Map<string, Encoder>();

function encoder(name: 'o200k_base' | 'cl100k_base'): Encoder {
  let e = encoders.get(name);
  if (!e) {
    e = require(`gpt-tokenizer/cjs/encoding/${name}`) as Encoder;
    encoders.set(name, e);
  }
  return e;
}

/** o200k for the GPT-4o generation and later, cl100k for everything else (a close estimate for non-OpenAI models). */
export function encodingFor(model: string): 'o200k_base' | 'cl100k_base' {
  return /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d)/.test(model) ? 'o200k_base' : 'cl100k_base';
}

export function countTextTokens(text: string, model: string): number {
  if (!text) return 0;
  return encoder(encodingFor(model)).countTokens(text);
}

const IMAGE_TOKENS_LOW = 85;
/** Without decoding the image: the cost of a 1024x1024 picture at high detail (4 tiles x 170 + 85). */
const IMAGE_TOKENS_DEFAULT = 765;

type Part = { type?: string; text?: string; image_url?: { detail?: string } | string; input_audio?: unknown };

function contentTokens(content: unknown, model: string): number {
  if (typeof content === 'string') return countTextTokens(content, model);
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const part of content as Part[]) {
    if (part?.type === 'text' && typeof part.text === 'string') n += countTextTokens(part.text, model);
    else if (part?.type === 'image_url') {
      const detail = typeof part.image_url === 'object' ? part.image_url?.detail : undefined;
      n += detail === 'low' ? IMAGE_TOKENS_LOW : IMAGE_TOKENS_DEFAULT;
    } else if (part?.type === 'input_audio') n += 100;
    else if (part?.type === 'file') n += 5000;
  }
  return n;
}

/** Prompt tokens of a chat request: 3 per message + role + name + content, 3 to prime the reply, tools text + 8. */
export function countChatPromptTokens(body: Record<string, unknown>, model: string): number {
  let n = 3;
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  for (const m of messages) {
    n += 3;
    if (typeof m.role === 'string') n += countTextTokens(m.role, model);
    if (typeof m.name === 'string') n += countTextTokens(m.name, model) + 1;
    n += contentTokens(m.content, model);
    if (Array.isArray(m.tool_calls)) n += countTextTokens(JSON.stringify(m.tool_calls), model);
  }
  if (Array.isArray(body.tools) && body.tools.length > 0) n += countTextTokens(JSON.stringify(body.tools), model) + 8;
  return n;
}

/** Tokens of any JSON input field (completions prompt, embeddings input, moderation input, rerank query + documents). */
export function countInputTokens(value: unknown, model: string): number {
  if (typeof value === 'string') return countTextTokens(value, model);
  if (Array.isArray(value)) {
    let n = 0;
    for (const v of value) {
      if (typeof v === 'string') n += countTextTokens(v, model);
      else if (typeof v === 'number') n += 1; // pre-tokenized input
      else if (Array.isArray(v)) n += v.length;
      else if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') n += countTextTokens((v as { text: string }).text, model);
    }
    return n;
  }
  return 0;
}

/**
 * Counts streamed output incrementally with bounded memory: text is tokenized in batches as it arrives and
 * never kept whole.
 */
export class IncrementalCounter {
  private pending = '';
  private tokens = 0;
  private static readonly BATCH = 4096;

  constructor(private readonly model: string) {}

  add(text: string): void {
    if (!text) return;
    this.pending += text;
    if (this.pending.length >= IncrementalCounter.BATCH) this.drain();
  }

  /** Extra tokens that have no text (e.g. per tool call). */
  addTokens(n: number): void {
    this.tokens += n;
  }

  total(): number {
    this.drain(true);
    return this.tokens;
  }

  private drain(all = false): void {
    if (!this.pending) return;
    // Cut at the last whitespace so a word is not split between two batches.
    const cut = all ? -1 : this.pending.lastIndexOf(' ');
    const head = cut > 0 ? this.pending.slice(0, cut) : this.pending;
    this.tokens += countTextTokens(head, this.model);
    this.pending = cut > 0 ? this.pending.slice(cut) : '';
  }
}

/**
 * Loads every encoding now (about a second of CPU the first time). A shutdown calls it while calls drain, so the
 * streams it stops at the deadline — whose usage is counted here — are not kept waiting for the load then.
 */
export function loadEncodings(): void {
  encoder('o200k_base');
  encoder('cl100k_base');
}
