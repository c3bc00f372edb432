import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeWire } from '../providers/claude/wire.js';
import { geminiWire } from '../providers/gemini/wire.js';
import { openAIWire, responsesWire } from '../providers/openai/wire.js';
import type { ClientCall, ClientFormat, UpstreamCall, WireCodec } from '../types.js';
import { SseReader } from './claude/sse.js';
import { clientFormat } from './index.js';
import type { ChatChunk, ChatCompletion, ChatUsage, FinishReason } from './openai/chat.js';

/*
 * Property: a random answer (text, tool calls, finish reason, usage) encoded in each client format and read back by
 * that format's own decoder says the same; and so does a random stream of chunks, cut at random byte boundaries:
 * the text concatenates to the same string, every tool call keeps its name and arguments, usage stays equal.
 * Runs: FUZZ_RUNS (default 40).
 */

const RUNS = Number(process.env.FUZZ_RUNS) || 40;

interface Answer {
  reasoning: string;
  text: string;
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  finish: FinishReason;
  usage: { prompt: number; completion: number };
}

const answerArb: fc.Arbitrary<Answer> = fc
  .record({
    reasoning: fc.oneof(fc.constant(''), fc.string({ unit: 'grapheme', maxLength: 40 })),
    text: fc.string({ unit: 'grapheme', maxLength: 60 }),
    calls: fc.array(
      fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), args: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.integer(), fc.boolean()), { maxKeys: 3 }) }),
      { maxLength: 2 },
    ),
    length: fc.boolean(),
    usage: fc.record({ prompt: fc.integer({ min: 1, max: 100_000 }), completion: fc.integer({ min: 1, max: 10_000 }) }),
  })
  .filter((a) => a.text.length > 0 || a.calls.length > 0)
  .map((a) => ({ reasoning: a.reasoning, text: a.text, calls: a.calls, finish: a.calls.length > 0 ? 'tool_calls' : a.length ? 'length' : 'stop', usage: a.usage }));

const chatUsage = (u: Answer['usage']): ChatUsage => ({ prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion });

function completionOf(a: Answer): ChatCompletion {
  return {
    id: 'chatcmpl-fuzz',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'm',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: a.text || null,
          ...(a.reasoning ? { reasoning_content: a.reasoning } : {}),
          ...(a.calls.length > 0 ? { tool_calls: a.calls.map((c, i) => ({ id: `call_${i}`, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}),
        },
        finish_reason: a.finish,
      },
    ],
    usage: chatUsage(a.usage),
  };
}

/** The answer as OpenAI streams it, its text and arguments cut where `cuts` says. */
function chunksOf(a: Answer, cuts: number[]): ChatChunk[] {
  const base = { id: 'chatcmpl-fuzz', object: 'chat.completion.chunk' as const, created: 1_700_000_000, model: 'm' };
  const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: FinishReason | null = null): ChatChunk => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const pieces = (s: string) => {
    const at = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((x, y) => x - y);
    const out: string[] = [];
    let from = 0;
    for (const to of [...at, s.length]) {
      if (to > from) out.push(s.slice(from, to));
      from = Math.max(from, to);
    }
    return out;
  };
  const out: ChatChunk[] = [chunk({ role: 'assistant', content: '' })];
  for (const p of pieces(a.reasoning)) out.push(chunk({ reasoning_content: p }));
  for (const p of pieces(a.text)) out.push(chunk({ content: p }));
  a.calls.forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const p of pieces(JSON.stringify(c.args))) out.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  out.push(chunk({}, a.finish));
  out.push({ ...base, choices: [], usage: chatUsage(a.usage) });
  return out;
}

interface Read {
  reasoning: string;
  text: string;
  calls: Array<{ name: string; args: unknown }>;
  usage: { prompt: number; completion: number } | null;
}

function readCompletion(c: ChatCompletion): Read {
  const m = c.choices[0].message;
  return {
    reasoning: m.reasoning_content ?? '',
    text: m.content ?? '',
    calls: (m.tool_calls ?? []).map((t) => ({ name: t.function.name, args: JSON.parse(t.function.arguments) as unknown })),
    usage: c.usage ? { prompt: c.usage.prompt_tokens, completion: c.usage.completion_tokens } : null,
  };
}

function readChunks(chunks: ChatChunk[]): Read & { finish: string | null } {
  let text = '';
  let reasoning = '';
  let finish: string | null = null;
  let usage: Read['usage'] = null;
  const calls = new Map<number, { name: string; args: string }>();
  for (const c of chunks) {
    if (c.usage) usage = { prompt: c.usage.prompt_tokens, completion: c.usage.completion_tokens };
    for (const choice of c.choices) {
      if (choice.delta.content) text += choice.delta.content;
      if (choice.delta.reasoning_content) reasoning += choice.delta.reasoning_content;
      for (const tc of choice.delta.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { name: '', args: '' };
        call.name += tc.function?.name ?? '';
        call.args += tc.function?.arguments ?? '';
        calls.set(tc.index, call);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  return { reasoning, text, calls: [...calls.values()].map((c) => ({ name: c.name, args: JSON.parse(c.args || '{}') as unknown })), usage, finish };
}

/** Responses has no stream decoder (it passes through): its events read back directly. */
function readResponsesStream(bytes: Buffer[]): Read {
  const reader = new SseReader();
  const events = [...bytes.flatMap((b) => reader.push(b)), ...reader.finish()];
  let text = '';
  let reasoning = '';
  const calls: Read['calls'] = [];
  let usage: Read['usage'] = null;
  for (const e of events) {
    const data = JSON.parse(e.data) as { type: string; delta?: string; item?: { type: string; name: string; arguments: string }; response?: { usage?: { input_tokens: number; output_tokens: number } } };
    if (data.type === 'response.output_text.delta') text += data.delta;
    if (data.type === 'response.reasoning_summary_text.delta') reasoning += data.delta;
    if (data.type === 'response.output_item.done' && data.item?.type === 'function_call') calls.push({ name: data.item.name, args: JSON.parse(data.item.arguments) as unknown });
    if ((data.type === 'response.completed' || data.type === 'response.incomplete') && data.response?.usage) usage = { prompt: data.response.usage.input_tokens, completion: data.response.usage.output_tokens };
  }
  return { reasoning, text, calls, usage };
}

const callOf = (format: ClientFormat): ClientCall => ({ format, mode: 'chat', model: 'm', stream: true, json: { model: 'm', input: 'x' }, clientWantsStreamUsage: true, maxTokens: 0 });
const upOf = (format: ClientFormat) => ({ call: callOf(format), converted: null, wire: format }) as unknown as UpstreamCall;

const CODECS: Record<ClientFormat, WireCodec> = { openai: openAIWire, claude: claudeWire, gemini: geminiWire, responses: responsesWire };
const FORMATS: ClientFormat[] = ['openai', 'claude', 'gemini', 'responses'];

/** The bytes cut at the given offsets (as a socket might deliver them). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) out.push(bytes.subarray(from, to));
    from = Math.max(from, to);
  }
  return out;
}

const expectedOf = (a: Answer): Read => ({ reasoning: a.reasoning, text: a.text, calls: a.calls.map((c) => ({ name: c.name, args: c.args })), usage: a.usage });

describe('answers in every client format read back the same (property)', () => {
  it.each(FORMATS)('%s: whole answers', (format) => {
    fc.assert(
      fc.property(answerArb, (a) => {
        const encoded = clientFormat(format).fromCanonical(completionOf(a) as unknown as Record<string, unknown>, callOf(format));
        const decoded = CODECS[format].decode(Buffer.from(JSON.stringify(encoded)), upOf(format)) as unknown as ChatCompletion;
        expect(readCompletion(decoded)).toEqual(expectedOf(a));
        const finish = decoded.choices[0].finish_reason;
        expect(finish === 'length' ? 'length' : finish === 'tool_calls' ? 'tool_calls' : 'stop').toBe(a.finish);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(FORMATS)('%s: streams cut anywhere', (format) => {
    fc.assert(
      fc.property(answerArb, fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), (a, textCuts, byteCuts) => {
        const encoder = clientFormat(format).streamEncoder(callOf(format), a.usage.prompt);
        let out = '';
        for (const chunk of chunksOf(a, textCuts)) out += encoder.push(chunk);
        out += encoder.finish(chatUsage(a.usage));
        const pieces = split(Buffer.from(out), byteCuts);
        if (format === 'responses') {
          expect(readResponsesStream(pieces)).toEqual(expectedOf(a));
          return;
        }
        const decoder = CODECS[format].streamDecoder(upOf(format));
        const chunks = [...pieces.flatMap((p) => decoder.push(p)), ...decoder.finish()];
        const read = readChunks(chunks);
        expect({ reasoning: read.reasoning, text: read.text, calls: read.calls, usage: read.usage }).toEqual(expectedOf(a));
        expect(read.finish === 'length' ? 'length' : read.finish === 'tool_calls' ? 'tool_calls' : 'stop').toBe(a.finish);
      }),
      { numRuns: RUNS },
    );
  });
});
