// CPU per call of the request-body checks every relayed call runs (server/src/relay/formats/*/schema.ts, ajv
// compiled once), on the built server, next to JSON.parse of the same body and an equivalent zod 4 schema (the other
// candidate: zod is already a dependency). Run from the repository root after `npm run build`:
//   node bench/micro-validation.mjs [--server server/dist] [--rounds 7]
// Each figure is the best of several rounds (interference from other processes only ever adds time).
import path from 'node:path';
import { createRequire } from 'node:module';
import { builtServer, cpuBench } from './lib/micro.mjs';

const { dist, ROUNDS, imp } = builtServer();
const { openAIBodyCheck } = await imp('relay/formats/openai/schema.js');
const { checkClaudeMessages } = await imp('relay/formats/claude/schema.js');
const { GEMINI_BODIES } = await imp('relay/formats/gemini/schema.js');
const { checkResponsesBody } = await imp('relay/formats/responses/schema.js');
const { listsOfGenerate } = await imp('relay/formats/gemini/lists.js');
const { z } = createRequire(path.join(dist, 'main.js'))('zod');

const bench = cpuBench(ROUNDS);

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city'] },
    },
  },
];
const turn = (i) => [
  { role: 'user', content: `Question ${i}: what is the weather in Paris, and what should I wear today?` },
  { role: 'assistant', content: `Answer ${i}: it is mild and sunny; a light jacket is enough.` },
];
/** A typical chat call: system, a short exchange, the question; tools and options as chat apps send them. */
const typical = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...turn(0), { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] }],
  stream: true,
  stream_options: { include_usage: true },
  temperature: 0.7,
  max_tokens: 1024,
  tools,
};
const long = { ...typical, messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...Array.from({ length: 25 }, (_, i) => turn(i)).flat()].slice(0, 50) };

const claude = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'You are a helpful assistant.',
  messages: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny, 21C' }, { type: 'text', text: 'What should I wear?' }] },
  ],
  tools: [{ name: 'get_weather', description: 'Weather of a city', input_schema: tools[0].function.parameters }],
  stream: true,
};
const gemini = {
  systemInstruction: { parts: [{ text: 'You are a helpful assistant.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
    { role: 'model', parts: [{ text: 'Sunny and mild.' }] },
    { role: 'user', parts: [{ text: 'What should I wear?' }] },
  ],
  generationConfig: { temperature: 0.7, maxOutputTokens: 1024 },
};
const responses = {
  model: 'gpt-4.1',
  instructions: 'You are a helpful assistant.',
  input: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
    { role: 'user', content: [{ type: 'input_text', text: 'What should I wear?' }] },
  ],
  tools: [{ type: 'function', name: 'get_weather', parameters: tools[0].function.parameters }],
  stream: true,
};

// The zod 4 equivalent of the chat check (same fields and the same leniency), for comparison.
const zPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const zMessage = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(zPart), z.null()]).optional(),
  name: z.string().optional(),
  tool_call_id: z.string().optional(),
  tool_calls: z.array(z.looseObject({ id: z.string().optional(), function: z.looseObject({ name: z.string(), arguments: z.string().optional() }) })).nullish(),
});
const zChat = z.looseObject({
  model: z.string(),
  messages: z.array(zMessage).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  max_tokens: z.number().int().nullish(),
  max_completion_tokens: z.number().int().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  stop: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  tools: z.array(z.looseObject({ type: z.string().optional(), function: z.looseObject({ name: z.string(), parameters: z.looseObject({}).optional() }).optional() })).nullish(),
  tool_choice: z.union([z.string(), z.looseObject({})]).optional(),
  user: z.string().optional(),
});

const chatCheck = openAIBodyCheck('chat');
const text = (b) => JSON.stringify(b);
const typicalText = text(typical);
const longText = text(long);
console.log(`server build: ${path.relative(process.cwd(), dist) || dist}; node ${process.version}; best of ${ROUNDS} rounds, CPU µs per call`);
console.log(`bodies: typical chat ${typicalText.length} B (4 messages, a tool), long chat ${longText.length} B (50 messages)\n`);
if (chatCheck(typical) !== null || chatCheck(long) !== null || !zChat.safeParse(typical).success) throw new Error('the sample bodies must pass');

bench('JSON.parse, typical chat body (for scale)', 50_000, () => JSON.parse(typicalText));
bench('JSON.parse, 50-message chat body (for scale)', 10_000, () => JSON.parse(longText));
bench('ajv check, typical chat body', 200_000, () => chatCheck(typical));
bench('ajv check, 50-message chat body', 50_000, () => chatCheck(long));
bench('zod 4 safeParse, typical chat body', 50_000, () => zChat.safeParse(typical));
bench('zod 4 safeParse, 50-message chat body', 10_000, () => zChat.safeParse(long));
bench('ajv check, Claude messages body (tool use and result)', 200_000, () => checkClaudeMessages(claude));
bench('ajv check, Gemini generateContent body', 200_000, () => GEMINI_BODIES.generateContent.check(gemini));
bench('Gemini lists (single objects made lists), generateContent body', 200_000, () => listsOfGenerate(gemini));
bench('ajv check, Responses body (function call round trip)', 200_000, () => checkResponsesBody(responses));
const bad = { ...typical, messages: [...typical.messages, { role: 'user', content: 123 }] };
bench('ajv check, a failing chat body (first problem found)', 50_000, () => chatCheck(bad));
