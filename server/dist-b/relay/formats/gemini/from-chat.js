import { averageLogprob, geminiLogprobsOf } from './logprobs.js';
const FINISH = {
    stop: 'STOP',
    length: 'MAX_TOKENS',
    // Gemini has no tool-call stop reason: a turn that ends in function calls finishes with STOP.
    tool_calls: 'STOP',
    content_filter: 'SAFETY',
};
/** A ChatCompletion as Gemini's generateContent answer. */
export function chatToGemini(resp) {
    const candidates = resp.choices.map((choice) => {
        const m = choice.message;
        const parts = [];
        if (m.reasoning_content)
            parts.push({ text: m.reasoning_content, thought: true });
        if (typeof m.content === 'string' && m.content !== '')
            parts.push({ text: m.content });
        for (const call of m.tool_calls ?? [])
            parts.push({ functionCall: functionCallOf(call.function.name, call.function.arguments) });
        const cand = { content: { role: 'model', parts }, index: choice.index };
        if (choice.finish_reason)
            cand.finishReason = FINISH[choice.finish_reason];
        addLogprobs(cand, choice.logprobs);
        return cand;
    });
    const out = { candidates };
    if (resp.usage)
        out.usageMetadata = usageMetadataOf(resp.usage);
    out.modelVersion = resp.model;
    out.responseId = resp.id;
    return out;
}
function addLogprobs(cand, logprobs) {
    if (!logprobs?.content)
        return;
    cand.logprobsResult = geminiLogprobsOf(logprobs);
    const avg = averageLogprob(logprobs);
    if (avg !== undefined)
        cand.avgLogprobs = avg;
}
function functionCallOf(name, args) {
    return { name, args: parseArgs(args) };
}
/** Gemini's args is an object; arguments that are not a JSON object are kept under one key rather than lost. */
function parseArgs(args) {
    if (args.trim() === '')
        return {};
    try {
        const parsed = JSON.parse(args);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            return parsed;
        return { value: parsed };
    }
    catch {
        return { arguments: args };
    }
}
/** Gemini counts thoughts apart from candidates; OpenAI counts reasoning inside completion_tokens. */
export function usageMetadataOf(u) {
    const thoughts = u.completion_tokens_details?.reasoning_tokens ?? 0;
    const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
    const meta = {
        promptTokenCount: u.prompt_tokens,
        candidatesTokenCount: Math.max(0, u.completion_tokens - thoughts),
        totalTokenCount: u.total_tokens || u.prompt_tokens + u.completion_tokens,
    };
    if (cached > 0)
        meta.cachedContentTokenCount = cached;
    if (thoughts > 0)
        meta.thoughtsTokenCount = thoughts;
    return meta;
}
function isJson(text) {
    try {
        JSON.parse(text || '{}');
        return true;
    }
    catch {
        return false;
    }
}
function sse(event) {
    return `data: ${JSON.stringify(event)}\r\n\r\n`;
}
/**
 * A ChatChunk stream as Gemini's streamGenerateContent?alt=sse events. Text and thoughts go out as they come;
 * a function call is sent whole (Gemini never streams partial arguments), once the next call starts or the choice
 * finishes. Finish reasons are held until the usage that OpenAI sends after them, so the last event carries both,
 * as Gemini's does; finish() must be called at the end of the upstream body to send it.
 */
export class ChatToGeminiStream {
    choices = new Map();
    usage = null;
    model = '';
    id = '';
    done = false;
    push(chunk) {
        if (chunk.model)
            this.model = chunk.model;
        if (chunk.id)
            this.id = chunk.id;
        if (chunk.usage)
            this.usage = chunk.usage;
        let out = '';
        for (const choice of chunk.choices ?? []) {
            const state = this.state(choice.index ?? 0);
            const d = choice.delta ?? {};
            const parts = [];
            if (d.reasoning_content)
                parts.push({ text: d.reasoning_content, thought: true });
            if (typeof d.content === 'string' && d.content !== '')
                parts.push({ text: d.content });
            for (const tc of d.tool_calls ?? []) {
                for (const [index] of state.calls)
                    if (index < tc.index)
                        parts.push(...takeCall(state, index));
                const call = state.calls.get(tc.index) ?? { name: '', args: '' };
                if (tc.function?.name)
                    call.name += tc.function.name;
                if (tc.function?.arguments)
                    call.args += tc.function.arguments;
                state.calls.set(tc.index, call);
            }
            if (choice.finish_reason) {
                state.finishReason = choice.finish_reason;
                parts.push(...takeAllCalls(state));
            }
            const logprobs = choice.logprobs?.content ? { logprobsResult: geminiLogprobsOf(choice.logprobs) } : {};
            if (parts.length > 0)
                out += this.event([{ content: { role: 'model', parts }, index: choice.index ?? 0, ...logprobs }]);
        }
        return out;
    }
    /** Ends the stream: the last event with the finish reasons and usage (a cut stream gets what is known). */
    finish(usage) {
        if (this.done)
            return '';
        this.done = true;
        if (usage)
            this.usage = usage;
        const candidates = [];
        for (const [index, state] of [...this.choices].sort((a, b) => a[0] - b[0])) {
            // A call still open when the stream was cut has unfinished arguments: the client must not run it.
            const parts = takeAllCalls(state, state.finishReason === null);
            if (parts.length === 0 && !state.finishReason)
                continue;
            // The text already went out: the closing event carries the finish reason (and usage) with no invented part.
            const cand = { content: { role: 'model', parts }, index };
            if (state.finishReason)
                cand.finishReason = FINISH[state.finishReason];
            candidates.push(cand);
        }
        if (candidates.length === 0 && !this.usage)
            return '';
        if (candidates.length === 0)
            candidates.push({ content: { role: 'model', parts: [] }, index: 0 });
        return this.event(candidates, this.usage);
    }
    state(index) {
        let state = this.choices.get(index);
        if (!state) {
            state = { calls: new Map(), finishReason: null };
            this.choices.set(index, state);
        }
        return state;
    }
    event(candidates, usage) {
        const event = { candidates };
        if (usage)
            event.usageMetadata = usageMetadataOf(usage);
        if (this.model)
            event.modelVersion = this.model;
        if (this.id)
            event.responseId = this.id;
        return sse(event);
    }
}
function takeCall(state, index, onlyComplete = false) {
    const call = state.calls.get(index);
    state.calls.delete(index);
    if (!call || !call.name || (onlyComplete && !isJson(call.args)))
        return [];
    return [{ functionCall: functionCallOf(call.name, call.args) }];
}
function takeAllCalls(state, onlyComplete = false) {
    const indexes = [...state.calls.keys()].sort((a, b) => a - b);
    return indexes.flatMap((i) => takeCall(state, i, onlyComplete));
}
//# sourceMappingURL=from-chat.js.map