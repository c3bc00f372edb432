import { SideMeter, TOKENS_PER_TOOL_CALL } from '../side-meter.js';
import { usageOfResponseBytes } from './usage.js';
export { responsesUsageFromJson } from './usage.js';
/** A delta with at least one character marks the first token. */
const HAS_DELTA = /"delta"\s*:\s*"[^"]/;
/** Events whose `delta` is generated output: answer text, refusals, tool arguments, thoughts. */
const OUTPUT_DELTAS = new Set([
    'response.output_text.delta',
    'response.refusal.delta',
    'response.function_call_arguments.delta',
    'response.custom_tool_call_input.delta',
    'response.reasoning_summary_text.delta',
    'response.reasoning_text.delta',
]);
/**
 * Watches a Responses SSE stream passed through to a Responses client. Usage comes from the terminal event
 * (response.completed, response.incomplete or response.failed), which repeats the whole response; only those, error
 * events and function-call items are JSON-parsed. Output deltas are kept for counting in case the stream breaks
 * before the terminal event.
 */
export class ResponsesStreamMeter extends SideMeter {
    /** response.completed or response.incomplete arrived: the answer is whole (as far as it goes). */
    sawStop = false;
    /** An error event or response.failed arrived. */
    error = null;
    finalUsage = null;
    /** Usage as reported by the terminal event; null before that (or when it reported none). */
    get usage() {
        return this.finalUsage;
    }
    /** Usage to bill: as reported, else the prompt estimate given and the output counted here. */
    billedUsage(promptEstimate = 0) {
        return this.finalUsage ?? { promptTokens: promptEstimate, completionTokens: this.counted(), cachedTokens: 0 };
    }
    inspect(name, data) {
        if (OUTPUT_DELTAS.has(name)) {
            if (!this.firstTokenAt && HAS_DELTA.test(data))
                this.firstTokenAt = Date.now();
            this.keep(data);
            return;
        }
        switch (name) {
            case 'response.output_item.added':
                if (data.includes('"function_call"'))
                    this.keep(data);
                return;
            case 'response.completed':
            case 'response.incomplete':
            case 'response.failed': {
                const usage = usageOfResponseBytes(Buffer.from(data), true);
                if (usage) {
                    this.finalUsage = usage;
                    this.usageReported();
                }
                if (name === 'response.failed') {
                    const err = this.parse(data)?.response?.error;
                    this.error = { code: str(err?.code, 'server_error'), message: str(err?.message, '') };
                }
                else {
                    this.sawStop = true;
                }
                return;
            }
            case 'error': {
                const p = this.parse(data);
                this.error = { code: str(p?.code, 'server_error'), message: str(p?.message, '') };
                return;
            }
        }
    }
    count(p) {
        if (p.item?.type === 'function_call') {
            this.counter.addTokens(TOKENS_PER_TOOL_CALL);
            if (typeof p.item.name === 'string')
                this.counter.add(p.item.name);
        }
        if (typeof p.delta === 'string')
            this.counter.add(p.delta);
    }
}
const str = (v, fallback) => (typeof v === 'string' ? v : fallback);
//# sourceMappingURL=meter.js.map