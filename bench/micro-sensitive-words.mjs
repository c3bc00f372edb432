// What the sensitive-word check of prompts costs a relayed call, on the built server (server/dist), in one process:
// building the matcher of a 1,000-word list (once per change of SensitiveWords), scanning a 4,096-character prompt
// (English and Chinese, no word found: the common case), and the relay's whole check (relay/prompt-words.ts) on a
// chat call, switched off and on, with 4 kB and 300 kB prompts in ASCII, in Chinese, and with characters that need
// NFKC (full-width letters, emoji, combining accents), and on an agent's call with tool definitions. A naive scan
// (indexOf of every word) and one regex alternation are shown for scale, and NFKC of the whole prompt.
//   node bench/micro-sensitive-words.mjs [--server server/dist] [--rounds 7]
// Each figure is the best of several rounds of CPU µs per operation (interference only ever adds time).
import path from 'node:path';
import { builtServer, cpuBench } from './lib/micro.mjs';

const { dist, ROUNDS, imp } = builtServer();
const { WordMatcher } = await imp('services/sensitive-words/matcher.js');
const { sensitiveWordMatcher } = await imp('services/sensitive-words/index.js');
const { refuseSensitivePrompt } = await imp('relay/prompt-words.js');
const { parseJsonCall } = await imp('relay/calls.js');

const bench = cpuBench(ROUNDS, 9);

// A fixed pseudo-random sequence, so every run measures the same words and prompts.
let seed = 42;
/** mulberry32: small, with no short cycles in its low bits (a plain LCG modulo a small n repeats itself). */
function rand(n) {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n | 0;
}
const latin = 'abcdefghijklmnopqrstuvwxyz';
const han = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长';
const pick = (alphabet, len) => Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join('');

// 1,000 words: two thirds Latin (6-12 letters), one third Chinese (4-6 characters).
const words = Array.from({ length: 1000 }, (_, i) => (i % 3 === 2 ? pick(han, 4 + rand(3)) : pick(latin, 6 + rand(7))));
const list = words.join('\n');
const english = [];
for (let n = 0; english.join(' ').length < 4096; n++) english.push(pick(latin, 2 + rand(7)));
const englishPrompt = english.join(' ').slice(0, 4096);
const chinesePrompt = pick(han, 4096);
/** `length` characters of `alphabet`, about one in `every` being one of `sprinkle` (punctuation, emoji ...). */
const prose = (alphabet, length, sprinkle = [], every = 0) => {
  let out = '';
  while (out.length < length) out += every && rand(every) === 0 ? sprinkle[rand(sprinkle.length)] : alphabet[rand(alphabet.length)];
  return out.slice(0, length);
};
// Chinese as written: full-width commas, colons and question marks (read through the table, no NFKC) and 。
const chinese4k = prose(han, 4096, [...'，。：？！、'], 12);
// Text that needs NFKC here and there: full-width letters, emoji (surrogate pairs), combining accents, an ellipsis.
const mixed4k = prose(`${latin}    `, 4096, ['ｆｕｌｌ', '😀', 'e\u0301', '…', '①'], 25);
/** 300 kB of a 4 kB prompt, lines apart (random text that long would hold some of the 1,000 words by chance). */
const to300kB = (prompt) => Array.from({ length: 75 }, () => prompt).join('\n');

const matcher = new WordMatcher(words);
const small = { ascii: englishPrompt, chinese: chinese4k, mixed: mixed4k };
const big = Object.fromEntries(Object.entries(small).map(([k, v]) => [k, to300kB(v)]));
if ([englishPrompt, chinesePrompt, ...Object.values(big), ...Object.values(small)].some((p) => matcher.find(p).length)) {
  // The prompts are random; a hit would make the scans measure the refusal path. Change the seed if this happens.
  console.error('a sample prompt contains a word of the list: pick another seed');
  process.exit(1);
}

const lowerWords = words.map((w) => w.toLowerCase());
const naive = (text) => {
  const lower = text.toLowerCase();
  return lowerWords.some((w) => lower.includes(w));
};
const alternation = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

/** What the relay's check reads of the app: the options (the check's switches, the word list) and the logger. */
function contextWith(enabled, wordsList = list) {
  const values = { CheckSensitiveEnabled: enabled, CheckSensitiveOnPromptEnabled: true, SensitiveWords: wordsList };
  const derived = new Map();
  const options = {
    get: (key) => values[key],
    derive: (key, compute) => {
      if (!derived.has(key)) derived.set(key, compute());
      return derived.get(key);
    },
  };
  return { options, log: { warn() {} } };
}
const body = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: englishPrompt.slice(0, 2048) },
    { role: 'user', content: [{ type: 'text', text: englishPrompt.slice(2048) }] },
  ],
};
const inputOf = (json) => ({ call: parseJsonCall('chat', Buffer.from(JSON.stringify(json))), caller: { user: { id: 1 }, token: null }, playground: false, ex: { id: 'bench' } });
const input = inputOf(body);
/** A typical chat call: system, a short exchange, the question (what most calls look like). */
const typical = inputOf({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'What is the weather in Paris today?' },
    { role: 'assistant', content: 'It is mild and sunny; a light jacket is enough.' },
    { role: 'user', content: [{ type: 'text', text: 'And tomorrow? Should I take an umbrella?' }] },
  ],
});
/** A chat call whose one user message is `prompt`. */
const chatOf = (prompt) => inputOf({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: prompt }] });
/** A coding agent's call: 30 tools with a described schema of 5 parameters each, and a 4 kB conversation. */
const tools = Array.from({ length: 30 }, (_, t) => ({
  type: 'function',
  function: {
    name: `tool_${t}`,
    description: `Runs step ${t} of the workflow on the files given and reports what changed, with its reasons.`,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 5 }, (_, p) => [`param_${p}`, { type: 'string', description: `The ${p}th input of the step, as a path or a short text.` }])),
      required: ['param_0'],
    },
  },
}));
const agent = inputOf({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'user', content: englishPrompt.slice(0, 2048) },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'tool_1', arguments: JSON.stringify({ param_0: 'src/main.ts', param_1: 'tidy' }) } }] },
    { role: 'tool', tool_call_id: 'c1', content: englishPrompt.slice(2048) },
  ],
  tools,
});
const off = contextWith(false);
const on = contextWith(true);
const onDefault = contextWith(true, 'test_sensitive');
sensitiveWordMatcher(on.options);
sensitiveWordMatcher(onDefault.options);

console.log(`server build: ${path.relative(process.cwd(), dist) || dist}; node ${process.version}; best of ${ROUNDS} rounds, CPU µs per operation`);
console.log(`list: ${words.length} words (${list.length} characters); prompts: ${englishPrompt.length} characters each\n`);
bench('build the matcher of 1,000 words (once per change of SensitiveWords)', 50, () => new WordMatcher(words));
bench('scan a 4,096-character English prompt, no word found', 5_000, () => matcher.find(englishPrompt));
bench('scan a 4,096-character Chinese prompt, no word found', 5_000, () => matcher.find(chinesePrompt));
const defaultList = new WordMatcher(['test_sensitive']);
bench('scan the English prompt with the default list (test_sensitive)', 5_000, () => defaultList.find(englishPrompt));
bench('the relay check, off (CheckSensitiveEnabled false)', 1_000_000, () => refuseSensitivePrompt(off, input));
bench('the relay check, on: a chat call of 3 messages, 4,096 characters', 5_000, () => refuseSensitivePrompt(on, input));
bench('the relay check, on, 1,000 words: a typical chat call (4 messages, 150 characters)', 200_000, () => refuseSensitivePrompt(on, typical));
bench('the relay check, on, default list: a typical chat call', 200_000, () => refuseSensitivePrompt(onDefault, typical));
console.log('\nthe relay check of one chat call, by prompt size and script (1,000 words; off: CheckSensitiveEnabled false)');
for (const [size, prompts, n] of [['4 kB', small, 5_000], ['300 kB', big, 60]]) {
  for (const [script, prompt] of Object.entries(prompts)) {
    const call = chatOf(prompt);
    bench(`${size} ${script.padEnd(7)} off`, n * 20, () => refuseSensitivePrompt(off, call));
    bench(`${size} ${script.padEnd(7)} on`, n, () => refuseSensitivePrompt(on, call));
    bench(`${size} ${script.padEnd(7)} on, default list`, n, () => refuseSensitivePrompt(onDefault, call));
    bench(`${size} ${script.padEnd(7)} for scale: NFKC of the whole prompt`, n, () => prompt.normalize('NFKC'));
  }
}
bench("an agent's call: 30 tools with 5 described parameters each, a tool call and 4 kB of text", 5_000, () => refuseSensitivePrompt(on, agent));
console.log('');
bench('for scale: indexOf of every word, English prompt', 200, () => naive(englishPrompt));
bench('for scale: one case-insensitive regex alternation, English prompt', 200, () => alternation.test(englishPrompt));
