/** Cohere names no error type in its bodies; the status says what kind it is (498 is Cohere's invalid token). */
const TYPE_BY_STATUS = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'payment_required',
    // Not permission_error: a 403 on one model or feature must not disable the whole channel.
    403: 'forbidden_error',
    404: 'not_found_error',
    422: 'invalid_request_error',
    429: 'rate_limit_error',
    498: 'authentication_error',
    499: 'request_cancelled',
    500: 'api_error',
    501: 'not_implemented',
    503: 'service_unavailable',
    504: 'timeout_error',
};
/** A Cohere error body ({"message": "..."}, often with an "id") as the relay's upstream error. Never echoes HTML. */
export function parseCohereError(status, body) {
    const type = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'upstream_error');
    try {
        const parsed = JSON.parse(body);
        const message = parsed && typeof parsed === 'object' ? (parsed.message ?? parsed.error) : undefined;
        if (typeof message === 'string' && message)
            return { message, type, code: '' };
    }
    catch {
        // not JSON
    }
    return { message: `bad response status code ${status}`, type, code: '' };
}
//# sourceMappingURL=errors.js.map