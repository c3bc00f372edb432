/*
 * Anthropic's token count (POST /v1/messages/count_tokens, and count-tokens:rawPredict on Vertex): the Messages body
 * minus what only generation takes (max_tokens, stream, sampling), which the endpoint refuses.
 */
const COUNTED = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'output_format', 'mcp_servers', 'context_management'];
/** The fields of a Messages body that count_tokens takes, the model set to `model`. */
export function claudeCountBody(body, model) {
    const out = {};
    for (const key of COUNTED)
        if (body[key] !== undefined)
            out[key] = body[key];
    out.model = model;
    return out;
}
export const readInputTokens = (answer) => typeof answer.input_tokens === 'number' ? answer.input_tokens : null;
/** The model a Claude body names: a converted body has the model the codec settled on (no -thinking suffix). */
export function claudeBodyModel(converted, upstreamModel) {
    return converted && typeof converted.model === 'string' && converted.model ? converted.model : upstreamModel;
}
//# sourceMappingURL=count.js.map