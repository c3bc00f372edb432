// What the sensitive-word check of prompts costs a relayed call, on the built server (server/dist), in one process:
// building the matcher of a 1,000-word list (once per change of SensitiveWords), scanning a 4,096-character prompt
// (English and Chinese, no word found: the common case), and the relay's whole check (relay/prompt-words.ts) on a
// chat call, switched off and on. A naive scan (indexOf of every word) and one regex alternation are shown for scale.
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

const matcher = new WordMatcher(words);
if (matcher.find(englishPrompt).length || matcher.find(chinesePrompt).length) {
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
bench('for scale: indexOf of every word, English prompt', 200, () => naive(englishPrompt));
bench('for scale: one case-insensitive regex alternation, English prompt', 200, () => alternation.test(englishPrompt));
