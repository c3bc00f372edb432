/**
 * A Response object read as a canonical ChatCompletion: output text, refusals, reasoning summaries and function calls.
 * Used to count what a passed-through answer generated when it carries no usage.
 */
export function responsesToCompletion(resp) {
    let text = '';
    let reasoning = '';
    const toolCalls = [];
    for (const item of (resp.output ?? [])) {
        if (item.type === 'message') {
            for (const part of item.content ?? [])
                text += part.type === 'output_text' ? part.text : part.refusal;
        }
        else if (item.type === 'function_call') {
            toolCalls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
        }
        else if (item.type === 'reasoning') {
            for (const s of item.summary ?? [])
                reasoning += s.text;
        }
    }
    const message = { role: 'assistant', content: text };
    if (reasoning)
        message.reasoning_content = reasoning;
    if (toolCalls.length > 0)
        message.tool_calls = toolCalls;
    const finish = resp.status === 'incomplete' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop';
    const out = {
        id: resp.id ?? '',
        object: 'chat.completion',
        created: resp.created_at ?? 0,
        model: resp.model ?? '',
        choices: [{ index: 0, message, finish_reason: finish }],
    };
    const u = resp.usage;
    if (u && typeof u.input_tokens === 'number' && typeof u.output_tokens === 'number') {
        out.usage = { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens, total_tokens: u.input_tokens + u.output_tokens };
        const cached = u.input_tokens_details?.cached_tokens;
        if (cached)
            out.usage.prompt_tokens_details = { cached_tokens: cached };
        const reasoningTokens = u.output_tokens_details?.reasoning_tokens;
        if (reasoningTokens)
            out.usage.completion_tokens_details = { reasoning_tokens: reasoningTokens };
    }
    return out;
}
//# sourceMappingURL=to-completion.js.map