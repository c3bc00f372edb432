import { CHANNEL_TYPE } from '@switchyard/shared';
import { resolveBaseUrl } from '../base-url.js';
import { claudeBodyModel, claudeCountBody, readInputTokens } from './count.js';
import { claudeHeaders, claudeUrl } from './index.js';
/** The Claude Messages body of an attempt: converted, or the client's own (bytes untouched unless the model changes). */
export function claudeBody(up) {
    if (up.converted)
        return JSON.stringify(up.converted);
    const overrides = Object.keys(up.channel.paramOverride).length > 0;
    if (up.upstreamModel === up.call.model && !overrides && up.call.raw)
        return up.call.raw;
    return JSON.stringify({ ...up.call.json, model: up.upstreamModel, ...up.channel.paramOverride });
}
/**
 * Extra headers per model from `claude.model_headers_settings` ({"<model>": {"<header>": "v" | ["v1","v2"]}}),
 * joined with the client's anthropic-beta values.
 */
export function claudeExtraHeaders(up) {
    const out = {};
    const beta = up.call.passHeaders?.['anthropic-beta'];
    if (beta)
        out['anthropic-beta'] = beta;
    const settings = up.options.get('claude.model_headers_settings')[up.upstreamModel];
    if (settings && typeof settings === 'object') {
        for (const [name, value] of Object.entries(settings)) {
            const values = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'string' && v !== '');
            if (values.length === 0)
                continue;
            const key = name.toLowerCase();
            out[key] = out[key] ? [...new Set([...out[key].split(','), ...values])].join(',') : values.join(',');
        }
    }
    return out;
}
export const claudeProvider = {
    name: 'claude',
    types: [CHANNEL_TYPE.ANTHROPIC],
    supports: (mode) => mode === 'chat',
    wire: () => 'claude',
    build(up) {
        const headers = { ...claudeHeaders(up.key, up.call.passHeaders?.['anthropic-version']), ...claudeExtraHeaders(up) };
        if (up.call.stream)
            headers.accept = 'text/event-stream';
        return { url: claudeUrl(resolveBaseUrl(up.channel)), method: 'POST', headers, body: claudeBody(up) };
    },
    defaultTestModel: 'claude-3-5-haiku-20241022',
    countTokens(up, body) {
        const headers = { ...claudeHeaders(up.key, up.call.passHeaders?.['anthropic-version']), ...claudeExtraHeaders(up) };
        const model = claudeBodyModel(up.converted, up.upstreamModel);
        const url = `${claudeUrl(resolveBaseUrl(up.channel))}/count_tokens`;
        return { request: { url, method: 'POST', headers, body: JSON.stringify(claudeCountBody(body, model)) }, read: readInputTokens };
    },
};
//# sourceMappingURL=provider.js.map