import { parseOpenAIError } from '../../formats/openai/errors.js';
/**
 * A Cloudflare API error: the v4 envelope ({"success": false, "errors": [{"code": 10000, "message": "..."}]}) that
 * authentication, quota and Workers AI failures come in, else the OpenAI body of the compatible endpoints.
 */
export function parseCloudflareError(status, body) {
    try {
        const parsed = JSON.parse(body);
        const first = parsed && Array.isArray(parsed.errors) ? parsed.errors[0] : undefined;
        if (first && typeof first === 'object') {
            const message = typeof first.message === 'string' && first.message ? first.message : `bad response status code ${status}`;
            const code = typeof first.code === 'number' || typeof first.code === 'string' ? String(first.code) : '';
            return { message, type: typeOf(status), code };
        }
    }
    catch {
        // not JSON: the OpenAI reader falls back to the status
    }
    return parseOpenAIError(status, body);
}
function typeOf(status) {
    if (status === 401)
        return 'authentication_error';
    if (status === 429)
        return 'rate_limit_error';
    if (status >= 500)
        return 'api_error';
    return 'invalid_request_error';
}
//# sourceMappingURL=errors.js.map