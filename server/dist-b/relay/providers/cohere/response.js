import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
const count = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null);
/**
 * Cohere usage in OpenAI's terms: the billed units (what Cohere charges for), or the raw token counts (which include
 * Cohere's own hidden prompt) when an answer carries only those. Null when neither has a count.
 */
export function chatUsageFromCohere(u) {
    if (!u || typeof u !== 'object')
        return null;
    const prompt = count(u.billed_units?.input_tokens) ?? count(u.tokens?.input_tokens);
    const completion = count(u.billed_units?.output_tokens) ?? count(u.tokens?.output_tokens);
    if (prompt === null && completion === null)
        return null;
    const usage = { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0, total_tokens: (prompt ?? 0) + (completion ?? 0) };
    const cached = count(u.cached_tokens);
    if (cached)
        usage.prompt_tokens_details = { cached_tokens: cached };
    return usage;
}
/** A turn that ended in tool calls reports TOOL_CALL; a plain COMPLETE with calls is the same thing to a client. */
export function finishOf(reason, hasCalls) {
    const normalized = normalizeFinishReason(reason) ?? 'stop';
    return normalized === 'stop' && hasCalls ? 'tool_calls' : normalized;
}
/**
 * A v2 chat answer as a ChatCompletion: text items are the content, thinking items the reasoning, tool calls keep
 * their ids. The tool plan (the text Cohere writes before calling tools) is the content of a tool-calling turn, so
 * it goes back to Cohere as the plan when the client sends the turn again.
 */
export function cohereToChatCompletion(resp, model, meta = {}) {
    let text = '';
    let reasoning = '';
    for (const item of resp.message?.content ?? []) {
        if (item.type === 'thinking' && typeof item.thinking === 'string')
            reasoning += item.thinking;
        else if (typeof item.text === 'string')
            text += item.text;
    }
    const calls = (resp.message?.tool_calls ?? []).map((c, i) => ({
        id: typeof c.id === 'string' && c.id ? c.id : `call_${i}`,
        type: 'function',
        function: { name: c.function?.name ?? '', arguments: argumentsText(c.function?.arguments) },
    }));
    if (!text && calls.length > 0 && typeof resp.message?.tool_plan === 'string')
        text = resp.message.tool_plan;
    const message = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
    if (reasoning)
        message.reasoning_content = reasoning;
    if (calls.length > 0)
        message.tool_calls = calls;
    const out = {
        id: meta.id ?? resp.id ?? `chatcmpl-${Math.random().toString(36).slice(2, 14)}`,
        object: 'chat.completion',
        created: meta.created ?? Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message, finish_reason: finishOf(resp.finish_reason, calls.length > 0) }],
    };
    const usage = chatUsageFromCohere(resp.usage);
    if (usage)
        out.usage = usage;
    return out;
}
function argumentsText(args) {
    if (typeof args === 'string')
        return args || '{}';
    if (args && typeof args === 'object')
        return JSON.stringify(args);
    return '{}';
}
//# sourceMappingURL=response.js.map