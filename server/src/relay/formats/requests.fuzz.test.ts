import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeWire } from '../providers/claude/wire.js';
import { cohereWire } from '../providers/cohere/wire.js';
import { geminiWire } from '../providers/gemini/wire.js';
import { openAIWire } from '../providers/openai/wire.js';
import type { Attempt, ClientCall, ClientFormat, WireCodec } from '../types.js';
import { claudeToChat } from './claude/to-chat.js';
import type { ClaudeRequest } from './claude/types.js';
import { geminiToChat } from './gemini/to-chat.js';
import type { GeminiRequest } from './gemini/types.js';
import { clientFormat } from './index.js';
import type { ChatMessage, ChatRequest } from './openai/chat.js';

/*
 * Property: a random valid request in any client format, converted to the canonical shape and then to every
 * upstream wire, still means the same thing when read back — system prompt, every turn's text and images, every
 * tool call with its arguments, every tool result, the tools offered and the sampling settings. Runs:
 * FUZZ_RUNS (default 40).
 */

const RUNS = Number(process.env.FUZZ_RUNS) || 40;

// ---- an abstract conversation, rendered in each client format ----

interface Tool {
  name: string;
  description?: string;
  properties: Record<string, 'string' | 'number' | 'boolean'>;
}
interface Call {
  name: string;
  args: Record<string, unknown>;
}
type Turn =
  | { role: 'user'; text: string; images: string[] }
  | { role: 'assistant'; text: string; calls: Call[] }
  | { role: 'tool'; callIndex: number; content: string };
interface Conversation {
  system?: string;
  turns: Turn[];
  tools: Tool[];
  maxTokens: number;
  sampling: { temperature?: number; topP?: number };
  stop?: string[];
}

const visible = (s: string) => s.trim().length > 0;
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter(visible);
const image = fc.oneof(
  fc.base64String({ minLength: 4, maxLength: 24 }).filter((b) => b.length % 4 === 0 && b.length > 0).map((b) => `data:image/png;base64,${b}`),
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((n) => `https://example.com/${n}.png`),
);
const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const propType = fc.constantFrom<'string' | 'number' | 'boolean'>('string', 'number', 'boolean');
const toolArb: fc.Arbitrary<Tool> = fc.record(
  {
    name: toolName,
    description: text,
    properties: fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,7}$/), propType, { minKeys: 1, maxKeys: 3 }),
  },
  { requiredKeys: ['name', 'properties'] },
);

const conversation: fc.Arbitrary<Conversation> = fc
  .record({
    system: fc.option(text, { nil: undefined }),
    tools: fc.uniqueArray(toolArb, { maxLength: 2, selector: (t) => t.name }),
    maxTokens: fc.integer({ min: 1, max: 8192 }),
    sampling: fc.oneof(fc.record({ temperature: fc.double({ min: 0, max: 1, noNaN: true }) }), fc.record({ topP: fc.double({ min: 0.01, max: 1, noNaN: true }) }), fc.constant({})),
    stop: fc.option(fc.array(fc.string({ minLength: 1, maxLength: 8 }).filter(visible), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    rounds: fc.array(fc.record({ user: fc.record({ text, images: fc.array(image, { maxLength: 2 }) }), answer: text, preamble: fc.oneof(text, fc.constant('')), callSeeds: fc.array(fc.nat(), { maxLength: 2 }), results: fc.array(fc.oneof(text, fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer()).map((o) => JSON.stringify(o))), { minLength: 2, maxLength: 2 }) }), { minLength: 1, maxLength: 3 }),
    argSeed: fc.array(fc.oneof(text, fc.integer({ min: -1000, max: 1000 }), fc.boolean()), { minLength: 6, maxLength: 6 }),
  })
  .chain((c) =>
    fc.constant(c).map(() => {
      const turns: Turn[] = [];
      let calls = 0;
      c.rounds.forEach((round, i) => {
        turns.push({ role: 'user', ...round.user });
        const last = i === c.rounds.length - 1;
        if (last) return;
        const roundCalls: Call[] = c.tools.length === 0 ? [] : round.callSeeds.map((seed) => callOf(c.tools[seed % c.tools.length], c.argSeed, seed));
        // A turn that calls tools may say nothing else (OpenAI's content: null).
        turns.push({ role: 'assistant', text: roundCalls.length > 0 ? round.preamble : round.answer, calls: roundCalls });
        roundCalls.forEach((_, k) => turns.push({ role: 'tool', callIndex: calls + k, content: round.results[k] }));
        calls += roundCalls.length;
        if (roundCalls.length > 0) turns.push({ role: 'assistant', text: round.answer, calls: [] });
      });
      return { system: c.system, turns, tools: c.tools, maxTokens: c.maxTokens, sampling: c.sampling, stop: c.stop };
    }),
  );

/** Arguments that match the tool's property types, picked from the seed values. */
function callOf(tool: Tool, seed: unknown[], n: number): Call {
  const args: Record<string, unknown> = {};
  Object.entries(tool.properties).forEach(([key, type], i) => {
    const candidates = seed.filter((v) => typeof v === type);
    args[key] = candidates.length > 0 ? candidates[(n + i) % candidates.length] : type === 'string' ? 'x' : type === 'number' ? 1 : true;
  });
  return { name: tool.name, args };
}

const schemaOf = (t: Tool) => ({ type: 'object', properties: Object.fromEntries(Object.entries(t.properties).map(([k, type]) => [k, { type }])) });
const callId = (i: number) => `call_${i}`;

function toOpenAI(c: Conversation): Record<string, unknown> {
  const messages: ChatMessage[] = [];
  if (c.system) messages.push({ role: 'system', content: c.system });
  let call = 0;
  for (const t of c.turns) {
    if (t.role === 'user') {
      messages.push({ role: 'user', content: t.images.length === 0 ? t.text : [{ type: 'text', text: t.text }, ...t.images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))] });
    } else if (t.role === 'assistant') {
      const msg: ChatMessage = { role: 'assistant', content: t.text };
      if (t.calls.length > 0) msg.tool_calls = t.calls.map((x) => ({ id: callId(call++), type: 'function' as const, function: { name: x.name, arguments: JSON.stringify(x.args) } }));
      messages.push(msg);
    } else {
      messages.push({ role: 'tool', tool_call_id: callId(t.callIndex), content: t.content });
    }
  }
  const req: ChatRequest = { model: 'm', messages, max_tokens: c.maxTokens };
  if (c.sampling.temperature !== undefined) req.temperature = c.sampling.temperature;
  if (c.sampling.topP !== undefined) req.top_p = c.sampling.topP;
  if (c.stop) req.stop = c.stop;
  if (c.tools.length > 0) req.tools = c.tools.map((t) => ({ type: 'function', function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: schemaOf(t) } }));
  return req;
}

function toClaude(c: Conversation): Record<string, unknown> {
  const messages: Array<{ role: string; content: unknown[] }> = [];
  const push = (role: string, blocks: unknown[]) => {
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  let call = 0;
  for (const t of c.turns) {
    if (t.role === 'user') {
      const images = t.images.map((url) =>
        url.startsWith('data:') ? { type: 'image', source: { type: 'base64', media_type: 'image/png', data: url.slice(url.indexOf(',') + 1) } } : { type: 'image', source: { type: 'url', url } },
      );
      push('user', [{ type: 'text', text: t.text }, ...images]);
    } else if (t.role === 'assistant') {
      push('assistant', [{ type: 'text', text: t.text }, ...t.calls.map((x) => ({ type: 'tool_use', id: callId(call++), name: x.name, input: x.args }))]);
    } else {
      push('user', [{ type: 'tool_result', tool_use_id: callId(t.callIndex), content: t.content }]);
    }
  }
  const req: Record<string, unknown> = { model: 'm', messages, max_tokens: c.maxTokens };
  if (c.system) req.system = c.system;
  if (c.sampling.temperature !== undefined) req.temperature = c.sampling.temperature;
  if (c.sampling.topP !== undefined) req.top_p = c.sampling.topP;
  if (c.stop) req.stop_sequences = c.stop;
  if (c.tools.length > 0) req.tools = c.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: schemaOf(t) }));
  return req;
}

function toGemini(c: Conversation): Record<string, unknown> {
  const contents: Array<{ role: string; parts: unknown[] }> = [];
  const calls: Call[] = [];
  for (const t of c.turns) {
    if (t.role === 'user') {
      const media = t.images.map((url) =>
        url.startsWith('data:') ? { inlineData: { mimeType: 'image/png', data: url.slice(url.indexOf(',') + 1) } } : { fileData: { mimeType: 'image/png', fileUri: url } },
      );
      contents.push({ role: 'user', parts: [{ text: t.text }, ...media] });
    } else if (t.role === 'assistant') {
      calls.push(...t.calls);
      contents.push({ role: 'model', parts: [{ text: t.text }, ...t.calls.map((x) => ({ functionCall: { name: x.name, args: x.args } }))] });
    } else {
      let response: unknown;
      try {
        response = JSON.parse(t.content);
      } catch {
        response = { content: t.content };
      }
      contents.push({ role: 'user', parts: [{ functionResponse: { name: calls[t.callIndex].name, response } }] });
    }
  }
  const generationConfig: Record<string, unknown> = { maxOutputTokens: c.maxTokens };
  if (c.sampling.temperature !== undefined) generationConfig.temperature = c.sampling.temperature;
  if (c.sampling.topP !== undefined) generationConfig.topP = c.sampling.topP;
  if (c.stop) generationConfig.stopSequences = c.stop;
  const req: Record<string, unknown> = { contents, generationConfig };
  if (c.system) req.systemInstruction = { parts: [{ text: c.system }] };
  if (c.tools.length > 0) req.tools = [{ functionDeclarations: c.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), parametersJsonSchema: schemaOf(t) })) }];
  return req;
}

function toResponses(c: Conversation): Record<string, unknown> {
  const input: unknown[] = [];
  let call = 0;
  for (const t of c.turns) {
    if (t.role === 'user') input.push({ role: 'user', content: [{ type: 'input_text', text: t.text }, ...t.images.map((url) => ({ type: 'input_image', image_url: url }))] });
    else if (t.role === 'assistant') {
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t.text }] });
      for (const x of t.calls) input.push({ type: 'function_call', call_id: callId(call++), name: x.name, arguments: JSON.stringify(x.args) });
    } else input.push({ type: 'function_call_output', call_id: callId(t.callIndex), output: t.content });
  }
  const req: Record<string, unknown> = { model: 'm', input, max_output_tokens: c.maxTokens };
  if (c.system) req.instructions = c.system;
  if (c.sampling.temperature !== undefined) req.temperature = c.sampling.temperature;
  if (c.sampling.topP !== undefined) req.top_p = c.sampling.topP;
  if (c.tools.length > 0) req.tools = c.tools.map((t) => ({ type: 'function', name: t.name, ...(t.description ? { description: t.description } : {}), parameters: schemaOf(t), strict: false }));
  return req;
}

const RENDER: Record<ClientFormat, (c: Conversation) => Record<string, unknown>> = { openai: toOpenAI, claude: toClaude, gemini: toGemini, responses: toResponses };

// ---- meaning of a canonical request ----

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).flatMap((p) => (p.type === 'text' ? [String((p as { text: string }).text)] : [])).join('\n');
}

/** A tool result as a value: a JSON object parsed (whatever its spacing), Gemini's {content: text} wrapping undone. */
function resultValue(content: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(content);
  } catch {
    return content;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return content;
  if (Object.keys(v).length === 1 && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content;
  return v;
}

function meaning(req: ChatRequest, withStop: boolean) {
  const system = req.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)).join('\n');
  const ids: string[] = [];
  const turns = req.messages
    .filter((m) => m.role !== 'system' && m.role !== 'developer')
    .map((m) => {
      if (m.role === 'user') {
        const images = Array.isArray(m.content) ? m.content.flatMap((p) => (p.type === 'image_url' ? [(p as { image_url: { url: string } }).image_url.url] : [])) : [];
        return { role: 'user', text: textOf(m.content), images };
      }
      if (m.role === 'assistant') {
        const calls = (m.tool_calls ?? []).map((tc) => {
          ids.push(tc.id);
          return { name: tc.function.name, args: JSON.parse(tc.function.arguments || '{}') as unknown };
        });
        return { role: 'assistant', text: textOf(m.content), calls };
      }
      return { role: 'tool', callIndex: ids.indexOf(String(m.tool_call_id)), content: resultValue(textOf(m.content)) };
    });
  const tools = (req.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
  return {
    system,
    turns,
    tools,
    maxTokens: req.max_tokens ?? req.max_completion_tokens,
    temperature: req.temperature,
    topP: req.top_p,
    stop: withStop ? (typeof req.stop === 'string' ? [req.stop] : req.stop) : undefined,
  };
}

function expected(c: Conversation, withStop: boolean) {
  return {
    system: c.system ?? '',
    turns: c.turns.map((t) =>
      t.role === 'user' ? { role: 'user', text: t.text, images: t.images } : t.role === 'assistant' ? { role: 'assistant', text: t.text, calls: t.calls } : { role: 'tool', callIndex: t.callIndex, content: resultValue(t.content) },
    ),
    tools: c.tools.map((t) => ({ name: t.name, description: t.description, parameters: schemaOf(t) })),
    maxTokens: c.maxTokens,
    temperature: c.sampling.temperature,
    topP: c.sampling.topP,
    stop: withStop ? c.stop : undefined,
  };
}

// ---- the conversions ----

const attempt = (format: ClientFormat): Attempt =>
  ({
    call: { format, mode: 'chat', model: 'm', stream: false, clientWantsStreamUsage: false, maxTokens: 0 },
    channel: { paramOverride: {} },
    upstreamModel: 'claude-3-5-haiku-20241022',
    key: '',
    options: { get: (k: string) => (k === 'claude.default_max_tokens' ? { default: 8192 } : {}) },
  }) as unknown as Attempt;

/** Each wire with how its body reads back as canonical (the wire is also a client format). */
const WIRES: Array<{ name: string; codec: WireCodec; back: ((body: Record<string, unknown>) => ChatRequest) | null }> = [
  { name: 'openai', codec: openAIWire, back: (b) => b as unknown as ChatRequest },
  { name: 'claude', codec: claudeWire, back: (b) => claudeToChat(b as unknown as ClaudeRequest) },
  { name: 'gemini', codec: geminiWire, back: (b) => geminiToChat(b as unknown as GeminiRequest, 'm', false) },
  { name: 'cohere', codec: cohereWire, back: null },
];

/** Wire-specific readings that are not losses: Gemini has no parameterless functions, so `{}` stays unsent. */
function normalise(m: ReturnType<typeof meaning>, wire: string) {
  if (wire !== 'gemini') return m;
  return { ...m, tools: m.tools.map((t) => ({ ...t, parameters: t.parameters ?? { type: 'object', properties: {} } })) };
}

describe('requests in every client format survive conversion to every wire (property)', () => {
  it.each(['openai', 'claude', 'gemini', 'responses'] as ClientFormat[])('%s requests', (format) => {
    fc.assert(
      fc.property(conversation, (c) => {
        const withStop = format !== 'responses';
        const json = RENDER[format](c);
        const call = { format, mode: 'chat', model: 'm', stream: false, json, raw: Buffer.from(JSON.stringify(json)), clientWantsStreamUsage: false, maxTokens: 0 } as ClientCall;
        const canonical = clientFormat(format).toCanonical(call) as unknown as ChatRequest;
        expect(meaning(canonical, withStop)).toEqual(expected(c, withStop));
        for (const wire of WIRES) {
          const body = wire.codec.encode(canonical as unknown as Record<string, unknown>, attempt(format));
          if (!wire.back) continue;
          const back = wire.back(JSON.parse(JSON.stringify(body)) as Record<string, unknown>);
          expect(normalise(meaning(back, withStop), wire.name), `through ${wire.name}`).toEqual(normalise(expected(c, withStop) as ReturnType<typeof meaning>, wire.name));
        }
      }),
      { numRuns: RUNS },
    );
  });
});
