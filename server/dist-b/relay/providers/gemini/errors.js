/** ErrorInfo reasons of a key Google refuses, which it answers with 400 INVALID_ARGUMENT rather than 401. */
const KEY_REFUSED = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED']);
function refusesKey(details) {
    return Array.isArray(details) && details.some((d) => d && typeof d === 'object' && KEY_REFUSED.has(d.reason));
}
/**
 * A Gemini error body ({error: {code, message, status}}, sometimes wrapped in a one-element array by the streaming
 * endpoint) as the relay's upstream error. Never echoes HTML pages.
 */
export function parseGeminiError(status, body) {
    try {
        let parsed = JSON.parse(body);
        if (Array.isArray(parsed))
            parsed = parsed[0];
        const e = parsed?.error;
        if (e && typeof e === 'object') {
            const name = typeof e.status === 'string' ? e.status : '';
            const error = {
                message: typeof e.message === 'string' && e.message ? e.message : `bad response status code ${status}`,
                type: name || 'upstream_error',
                code: name || (typeof e.code === 'number' ? String(e.code) : ''),
            };
            if (refusesKey(e.details))
                error.credentials = true;
            return error;
        }
    }
    catch {
        // not JSON
    }
    return { message: `bad response status code ${status}`, type: 'upstream_error', code: '' };
}
//# sourceMappingURL=errors.js.map