import { SideMeter, TOKENS_PER_TOOL_CALL } from '../side-meter.js';
import { relayUsageFromClaude } from './usage.js';
export { claudeUsageFromJson } from './usage.js';
/** A delta with at least one character of text, thought or tool input marks the first token. */
const HAS_TEXT = /"(text|thinking|partial_json)":"[^"]/;
/**
 * Watches a Claude SSE stream passed through to a Claude client (thinking signatures must survive byte for byte).
 * Usage comes from message_start (input and cache) and message_delta (cumulative totals). Only those and error events
 * are JSON-parsed; content deltas are kept for counting in case the stream breaks before message_delta.
 */
export class ClaudeStreamMeter extends SideMeter {
    /** message_stop arrived: the answer is complete. */
    sawStop = false;
    /** An error event arrived mid-stream. */
    error = null;
    startUsage = {};
    finalUsage = null;
    /** Usage as reported once message_delta came; null before that. */
    get usage() {
        return this.finalUsage ? relayUsageFromClaude({ ...this.startUsage, ...this.finalUsage }) : null;
    }
    /** Usage to bill: as reported, else the prompt side from message_start and the output counted here. */
    billedUsage() {
        return this.usage ?? { ...relayUsageFromClaude(this.startUsage), completionTokens: this.counted() };
    }
    inspect(name, data) {
        switch (name) {
            case 'content_block_delta':
            case 'content_block_start':
                if (!this.firstTokenAt && name === 'content_block_delta' && HAS_TEXT.test(data))
                    this.firstTokenAt = Date.now();
                this.keep(data);
                return;
            case 'message_start':
                this.startUsage = this.parse(data)?.message?.usage ?? {};
                return;
            case 'message_delta': {
                const usage = this.parse(data)?.usage;
                if (usage) {
                    this.finalUsage = { ...this.finalUsage, ...definedOnly(usage) };
                    this.usageReported();
                }
                return;
            }
            case 'message_stop':
                this.sawStop = true;
                return;
            case 'error': {
                const err = this.parse(data)?.error;
                this.error = {
                    type: typeof err?.type === 'string' ? err.type : 'api_error',
                    message: typeof err?.message === 'string' ? err.message : '',
                };
                return;
            }
        }
    }
    count(p) {
        if (p.content_block?.type === 'tool_use') {
            this.counter.addTokens(TOKENS_PER_TOOL_CALL);
            if (typeof p.content_block.name === 'string')
                this.counter.add(p.content_block.name);
        }
        const d = p.delta;
        if (typeof d?.text === 'string')
            this.counter.add(d.text);
        if (typeof d?.thinking === 'string')
            this.counter.add(d.thinking);
        if (typeof d?.partial_json === 'string')
            this.counter.add(d.partial_json);
    }
}
/** message_delta omits or nulls counters that did not change; those keep message_start's values. */
function definedOnly(u) {
    const out = {};
    for (const [k, v] of Object.entries(u))
        if (v !== null && v !== undefined)
            out[k] = v;
    return out;
}
//# sourceMappingURL=meter.js.map