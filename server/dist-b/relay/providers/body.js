/**
 * The JSON body for an OpenAI-format upstream: the converted request; or the client's bytes untouched when nothing
 * needs to change, else the parsed body with the mapped model, forced stream usage and the channel's parameter overrides.
 */
export function jsonBody(up) {
    if (up.converted)
        return JSON.stringify(up.converted);
    const { call, channel } = up;
    const json = call.json ?? {};
    const remapModel = up.upstreamModel !== call.model;
    const forceUsage = call.format === 'openai' && call.stream && call.mode === 'chat' && !call.clientWantsStreamUsage;
    const overrides = Object.keys(channel.paramOverride).length > 0;
    if (!remapModel && !forceUsage && !overrides && call.raw)
        return call.raw;
    const out = { ...json, model: up.upstreamModel };
    if (forceUsage) {
        const existing = typeof json.stream_options === 'object' && json.stream_options !== null ? json.stream_options : {};
        // Object.assign: a spread followed by a new key takes V8's slow path (about 1.4 µs on Node 20).
        out.stream_options = Object.assign({}, existing, { include_usage: true });
    }
    if (overrides)
        Object.assign(out, channel.paramOverride);
    return JSON.stringify(out);
}
//# sourceMappingURL=body.js.map