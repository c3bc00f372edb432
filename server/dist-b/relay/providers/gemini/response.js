import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import { chatLogprobsOf } from '../../formats/gemini/logprobs.js';
const nowSeconds = () => Math.floor(Date.now() / 1000);
const idOf = (resp, meta) => meta.id ?? `chatcmpl-${resp.responseId ?? Math.random().toString(36).slice(2, 14)}`;
/** Gemini's usage in OpenAI's terms: thoughts are part of completion_tokens there, reported as reasoning_tokens. */
export function chatUsageOf(u) {
    const prompt = (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
    const thoughts = u.thoughtsTokenCount ?? 0;
    const completion = (u.candidatesTokenCount ?? 0) + thoughts;
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    if (u.cachedContentTokenCount)
        usage.prompt_tokens_details = { cached_tokens: u.cachedContentTokenCount };
    if (thoughts)
        usage.completion_tokens_details = { reasoning_tokens: thoughts };
    return usage;
}
/** A turn that ends in function calls stops with STOP in Gemini; OpenAI clients expect tool_calls. */
function finishOf(reason, hasCalls) {
    const normalized = normalizeFinishReason(reason);
    return normalized === 'stop' && hasCalls ? 'tool_calls' : normalized;
}
function callOf(name, args, id) {
    return { id, type: 'function', function: { name, arguments: JSON.stringify(args ?? {}) } };
}
/** A generateContent answer as a ChatCompletion. A prompt blocked before any candidate ends as content_filter. */
export function geminiToChatCompletion(resp, model, meta = {}) {
    const candidates = resp.candidates ?? [];
    const choices = candidates.map((cand, i) => {
        let text = '';
        let reasoning = '';
        let signature = '';
        const calls = [];
        for (const part of cand.content?.parts ?? []) {
            if (part.thoughtSignature && !signature)
                signature = part.thoughtSignature;
            if (part.functionCall)
                calls.push(callOf(part.functionCall.name, part.functionCall.args, part.functionCall.id ?? `call_${calls.length}`));
            else if (typeof part.text === 'string') {
                if (part.thought)
                    reasoning += part.text;
                else
                    text += part.text;
            }
        }
        const message = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
        if (reasoning)
            message.reasoning_content = reasoning;
        if (signature)
            message.reasoning_signature = signature;
        if (calls.length > 0)
            message.tool_calls = calls;
        const choice = { index: cand.index ?? i, message, finish_reason: finishOf(cand.finishReason, calls.length > 0) ?? 'stop' };
        if (cand.logprobsResult)
            choice.logprobs = chatLogprobsOf(cand.logprobsResult);
        return choice;
    });
    if (choices.length === 0) {
        const blocked = resp.promptFeedback?.blockReason !== undefined;
        choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: blocked ? 'content_filter' : 'stop' });
    }
    const out = { id: idOf(resp, meta), object: 'chat.completion', created: meta.created ?? nowSeconds(), model, choices };
    if (resp.usageMetadata)
        out.usage = chatUsageOf(resp.usageMetadata);
    return out;
}
/**
 * Gemini stream events as ChatChunks. Each event is a partial answer: its text parts are deltas, its function calls
 * come whole (one tool_calls delta each, arguments complete). Each candidate is one choice (candidateCount > 1).
 * Once every choice has finished, the last usage goes out as a usage-only chunk, as OpenAI sends it with
 * include_usage.
 */
export class GeminiStreamToChat {
    model;
    id;
    created;
    started = new Set();
    /** Function calls seen per choice index; a choice is finished once its entry in `finished` is set. */
    callCounts = new Map();
    finished = new Set();
    /** Choices whose thought signature went out. */
    signed = new Set();
    blocked = false;
    usage = null;
    usageSent = false;
    constructor(model, meta = {}) {
        this.model = model;
        this.id = meta.id ?? `chatcmpl-${Math.random().toString(36).slice(2, 14)}`;
        this.created = meta.created ?? nowSeconds();
    }
    /** The last usage seen, for metering. */
    get lastUsage() {
        return this.usage;
    }
    push(event) {
        if (event.usageMetadata)
            this.usage = chatUsageOf(event.usageMetadata);
        const out = [];
        const candidates = event.candidates ?? [];
        if (candidates.length === 0 && event.promptFeedback?.blockReason && !this.blocked) {
            this.blocked = true;
            this.finished.add(0);
            out.push(this.chunk(0, {}, 'content_filter'));
        }
        candidates.forEach((cand, i) => out.push(...this.candidate(cand.index ?? i, cand)));
        if (this.finished.size > 0 && [...this.callCounts.keys()].every((i) => this.finished.has(i)))
            out.push(...this.finish());
        return out;
    }
    /** End of the upstream body: the usage chunk if it has not gone out (a stream cut before its finish). */
    finish() {
        if (this.usageSent || !this.usage)
            return [];
        this.usageSent = true;
        return [{ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage: this.usage }];
    }
    candidate(index, cand) {
        let calls = this.callCounts.get(index) ?? 0;
        const delta = {};
        for (const part of cand.content?.parts ?? []) {
            // The turn's signature (the first one: later function calls of the same turn carry none) goes out once.
            if (part.thoughtSignature && !this.signed.has(index)) {
                this.signed.add(index);
                delta.reasoning_signature = part.thoughtSignature;
            }
            if (part.functionCall) {
                const fc = part.functionCall;
                (delta.tool_calls ??= []).push({
                    index: calls,
                    id: fc.id ?? (index === 0 ? `call_${calls}` : `call_${index}_${calls}`),
                    type: 'function',
                    function: { name: fc.name, arguments: JSON.stringify(fc.args ?? {}) },
                });
                calls++;
            }
            else if (typeof part.text === 'string' && part.text !== '') {
                if (part.thought)
                    delta.reasoning_content = (delta.reasoning_content ?? '') + part.text;
                else
                    delta.content = (delta.content ?? '') + part.text;
            }
        }
        this.callCounts.set(index, calls);
        const out = [];
        const logprobs = cand.logprobsResult ? chatLogprobsOf(cand.logprobsResult) : null;
        if (Object.keys(delta).length > 0 || logprobs) {
            const chunk = this.chunk(index, delta, null);
            if (logprobs)
                chunk.choices[0].logprobs = logprobs;
            out.push(chunk);
        }
        if (cand.finishReason && !this.finished.has(index)) {
            this.finished.add(index);
            out.push(this.chunk(index, {}, finishOf(cand.finishReason, calls > 0) ?? 'stop'));
        }
        return out;
    }
    chunk(index, delta, finish) {
        if (!this.started.has(index)) {
            this.started.add(index);
            delta = { role: 'assistant', ...delta };
        }
        return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index, delta, finish_reason: finish }] };
    }
}
/** One SSE data payload as a Gemini event; null for a payload that is not a JSON object (a cut-off last event). */
export function parseGeminiEvent(data) {
    try {
        const parsed = JSON.parse(data);
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=response.js.map