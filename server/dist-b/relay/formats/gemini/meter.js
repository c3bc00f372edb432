import { IncrementalCounter } from '../../tokenizer.js';
import { lastObjectAfterKey } from '../json-bytes.js';
/** Tokens added per function call on top of its text, as for OpenAI streams. */
const TOKENS_PER_TOOL_CALL = 7;
/** Event bytes kept unparsed for counting in case usage never comes; beyond this they are counted and let go. */
const UNCOUNTED_LIMIT = 64 * 1024;
const USAGE_KEY = Buffer.from('"usageMetadata"');
const FINISH_KEY = Buffer.from('"finishReason"');
const LF2 = Buffer.from('\n\n');
const CRLF2 = Buffer.from('\r\n\r\n');
const HAS_OUTPUT = /"text":\s*"[^"]|"functionCall"/;
const EMPTY = Buffer.alloc(0);
const num = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
/**
 * Gemini usage as the relay's: promptTokenCount already includes the cached tokens; tool-use prompt tokens are
 * reported apart and are prompt all the same; thoughts are billed as output.
 */
export function usageFromMetadata(raw) {
    if (!raw || typeof raw !== 'object')
        return null;
    const u = raw;
    const promptTokens = num(u.promptTokenCount) + num(u.toolUsePromptTokenCount);
    let completionTokens = num(u.candidatesTokenCount) + num(u.thoughtsTokenCount);
    if (!completionTokens && num(u.totalTokenCount) > promptTokens)
        completionTokens = num(u.totalTokenCount) - promptTokens;
    if (promptTokens === 0 && completionTokens === 0)
        return null;
    return { promptTokens, completionTokens, cachedTokens: num(u.cachedContentTokenCount) };
}
/** Usage of a non-streamed generateContent answer, without parsing the whole answer. */
export function geminiUsageFromJson(body) {
    return usageFromMetadata(lastObjectAfterKey(body, 'usageMetadata'));
}
/**
 * Watches a Gemini SSE stream passed through untouched: every chunk is forwarded as it arrived (nothing is ever held
 * back or rewritten, so thought signatures survive). Gemini repeats usageMetadata, cumulative, in every event: only
 * the last event carrying it is kept, unparsed, and read when asked. Events without it are kept for counting in case
 * usage never comes, bounded like the OpenAI meter.
 */
export class GeminiStreamMeter {
    firstTokenAt = 0;
    /** A finishReason went by: the answer ended normally (Gemini has no [DONE] marker). */
    sawFinish = false;
    tail = EMPTY;
    lastUsageEvent = null;
    parsedUsage;
    counter;
    uncounted = [];
    uncountedBytes = 0;
    constructor(model) {
        this.counter = new IncrementalCounter(model);
    }
    /** Takes upstream bytes and returns them unchanged; events are inspected as they complete. */
    push(chunk) {
        const buf = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
        let start = 0;
        for (;;) {
            const [end, sepLength] = nextBoundary(buf, start);
            if (end < 0)
                break;
            this.inspect(buf.subarray(start, end));
            start = end + sepLength;
        }
        // Copy so the tail does not pin the caller's (possibly pooled) chunk.
        this.tail = start < buf.length ? Buffer.from(buf.subarray(start)) : EMPTY;
        return chunk;
    }
    /** Inspects what is left at the end of the upstream body (an event without its blank line); nothing more to forward. */
    finish() {
        if (this.tail.length > 0)
            this.inspect(this.tail);
        this.tail = EMPTY;
        return EMPTY;
    }
    /** The last usage reported, or null when none came. */
    get usage() {
        if (this.parsedUsage === undefined) {
            this.parsedUsage = this.lastUsageEvent ? usageFromMetadata(lastObjectAfterKey(this.lastUsageEvent, 'usageMetadata')) : null;
        }
        return this.parsedUsage;
    }
    /** Completion tokens: as reported, else as counted from everything delivered. */
    completionTokens() {
        return this.usage?.completionTokens ?? this.counted();
    }
    counted() {
        this.countKept();
        return this.counter.total();
    }
    inspect(event) {
        if (event.length === 0)
            return;
        if (!this.firstTokenAt && HAS_OUTPUT.test(event.toString('utf8')))
            this.firstTokenAt = Date.now();
        if (!this.sawFinish && event.indexOf(FINISH_KEY) >= 0)
            this.sawFinish = true;
        if (event.indexOf(USAGE_KEY) >= 0) {
            this.lastUsageEvent = Buffer.from(event);
            this.parsedUsage = undefined;
            this.uncounted = [];
            this.uncountedBytes = 0;
        }
        else if (this.lastUsageEvent === null) {
            this.uncounted.push(Buffer.from(event));
            this.uncountedBytes += event.length;
            if (this.uncountedBytes > UNCOUNTED_LIMIT)
                this.countKept();
        }
    }
    countKept() {
        for (const event of this.uncounted) {
            const data = dataOf(event.toString('utf8'));
            try {
                this.countResponse(JSON.parse(data));
            }
            catch {
                // not JSON: nothing to count
            }
        }
        this.uncounted = [];
        this.uncountedBytes = 0;
    }
    countResponse(resp) {
        for (const cand of resp.candidates ?? []) {
            for (const part of cand.content?.parts ?? []) {
                if (typeof part.text === 'string')
                    this.counter.add(part.text);
                if (part.functionCall) {
                    this.counter.addTokens(TOKENS_PER_TOOL_CALL);
                    this.counter.add(part.functionCall.name);
                    this.counter.add(JSON.stringify(part.functionCall.args ?? {}));
                }
            }
        }
    }
}
/** The earliest event boundary at or after `from`: [index, separator length], or [-1, 0]. */
function nextBoundary(buf, from) {
    const lf = buf.indexOf(LF2, from);
    const crlf = buf.indexOf(CRLF2, from);
    if (crlf >= 0 && (lf < 0 || crlf < lf))
        return [crlf, 4];
    return lf >= 0 ? [lf, 2] : [-1, 0];
}
/** The data of an SSE event (its data: lines joined). */
export function dataOf(event) {
    let out = '';
    for (const raw of event.split('\n')) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line.startsWith('data:'))
            out += line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
    }
    return out;
}
//# sourceMappingURL=meter.js.map