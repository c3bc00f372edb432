import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const encoders = new Map();
function encoder(name) {
    let e = encoders.get(name);
    if (!e) {
        e = name === 'claude' ? claudeEncoder() : require(`gpt-tokenizer/cjs/encoding/${name}`);
        encoders.set(name, e);
    }
    return e;
}
/** Anthropic's vocabulary run by gpt-tokenizer's BPE core (its own package builds a WASM tokenizer per call). */
function claudeEncoder() {
    const { BytePairEncodingCore } = require('gpt-tokenizer/cjs/BytePairEncodingCore');
    const vocab = require('@anthropic-ai/tokenizer/claude.json');
    const fields = vocab.bpe_ranks.split(' ');
    const first = Number(fields[1]);
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const ranks = new Array(first + fields.length - 2);
    for (let i = 2; i < fields.length; i++) {
        const bytes = Buffer.from(fields[i], 'base64');
        let token;
        try {
            token = utf8.decode(bytes);
        }
        catch {
            token = [...bytes];
        }
        ranks[first + i - 2] = token;
    }
    const core = new BytePairEncodingCore({
        bytePairRankDecoder: ranks,
        tokenSplitRegex: new RegExp(vocab.pat_str, 'gu'),
        specialTokensEncoder: new Map(Object.entries(vocab.special_tokens)),
    });
    return { countTokens: (text) => core.countNative(text.normalize('NFKC')) };
}
/** The vocabulary a model is counted with. */
export function encodingFor(model) {
    if (/claude/i.test(model))
        return 'claude';
    return /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d|gemini|gemma)/.test(model) ? 'o200k_base' : 'cl100k_base';
}
export function countTextTokens(text, model) {
    if (!text)
        return 0;
    return encoder(encodingFor(model)).countTokens(text);
}
const IMAGE_TOKENS_LOW = 85;
/** Without decoding the image: the cost of a 1024x1024 picture at high detail (4 tiles x 170 + 85). */
const IMAGE_TOKENS_DEFAULT = 765;
function contentTokens(content, count) {
    if (typeof content === 'string')
        return count(content);
    if (!Array.isArray(content))
        return 0;
    let n = 0;
    for (const part of content) {
        if (part?.type === 'text' && typeof part.text === 'string')
            n += count(part.text);
        else if (part?.type === 'image_url') {
            const detail = typeof part.image_url === 'object' ? part.image_url?.detail : undefined;
            n += detail === 'low' ? IMAGE_TOKENS_LOW : IMAGE_TOKENS_DEFAULT;
        }
        else if (part?.type === 'input_audio')
            n += 100;
        else if (part?.type === 'file')
            n += 5000;
    }
    return n;
}
/** Prompt tokens of a chat request: 3 per message + role + name + content, 3 to prime the reply, tools text + 8. */
export function countChatPromptTokens(body, model, count = (t) => countTextTokens(t, model)) {
    let n = 3;
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (const m of messages) {
        n += 3;
        if (typeof m.role === 'string')
            n += count(m.role);
        if (typeof m.name === 'string')
            n += count(m.name) + 1;
        n += contentTokens(m.content, count);
        if (Array.isArray(m.tool_calls))
            n += count(JSON.stringify(m.tool_calls));
    }
    if (Array.isArray(body.tools) && body.tools.length > 0)
        n += count(JSON.stringify(body.tools)) + 8;
    return n;
}
/** Characters tokenized exactly by an estimate; the rest is counted at the rate measured on them. */
const ESTIMATE_EXACT_CHARS = 16 * 1024;
/**
 * A chat prompt's tokens for an estimate shown before the upstream reports (Claude's message_start): the model
 * family’s vocabulary on the first 16k characters, their tokens-per-character rate beyond, so a long agent prompt
 * costs no more than a short one.
 */
export function estimateChatPromptTokens(body, model, exactChars = ESTIMATE_EXACT_CHARS) {
    let chars = 0;
    let tokens = 0;
    const rate = () => (chars > 0 ? tokens / chars : 0.3);
    return countChatPromptTokens(body, model, (text) => {
        if (!text)
            return 0;
        const room = exactChars - chars;
        if (room <= 0)
            return Math.ceil(text.length * rate());
        const head = text.length <= room ? text : text.slice(0, room);
        const n = countTextTokens(head, model);
        chars += head.length;
        tokens += n;
        return head.length === text.length ? n : n + Math.ceil((text.length - head.length) * rate());
    });
}
/** Tokens of any JSON input field (completions prompt, embeddings input, moderation input, rerank query + documents). */
export function countInputTokens(value, model) {
    if (typeof value === 'string')
        return countTextTokens(value, model);
    if (Array.isArray(value)) {
        let n = 0;
        for (const v of value) {
            if (typeof v === 'string')
                n += countTextTokens(v, model);
            else if (typeof v === 'number')
                n += 1; // pre-tokenized input
            else if (Array.isArray(v))
                n += v.length;
            else if (v && typeof v === 'object' && typeof v.text === 'string')
                n += countTextTokens(v.text, model);
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
    model;
    pending = '';
    tokens = 0;
    static BATCH = 4096;
    constructor(model) {
        this.model = model;
    }
    add(text) {
        if (!text)
            return;
        this.pending += text;
        if (this.pending.length >= IncrementalCounter.BATCH)
            this.drain();
    }
    /** Extra tokens that have no text (e.g. per tool call). */
    addTokens(n) {
        this.tokens += n;
    }
    total() {
        this.drain(true);
        return this.tokens;
    }
    drain(all = false) {
        if (!this.pending)
            return;
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
export function loadEncodings() {
    encoder('o200k_base');
    encoder('cl100k_base');
}
//# sourceMappingURL=tokenizer.js.map