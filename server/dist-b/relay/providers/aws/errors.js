/**
 * A Bedrock error answer: JSON `{"message": "..."}` (some front ends write `Message`), with the error's name in the
 * x-amzn-errortype header (`ValidationException:http://internal.amazon.com/...`) or, failing that, in the body's
 * `__type` (`com.amazon.coral.validate#ValidationException`). The name is both type and code. Bodies that are not
 * JSON (a proxy's HTML page) report the status only.
 */
export function parseBedrockError(status, body, headers = {}) {
    let parsed = {};
    try {
        const v = JSON.parse(body);
        if (v && typeof v === 'object' && !Array.isArray(v))
            parsed = v;
    }
    catch {
        // not JSON
    }
    const raw = headers['x-amzn-errortype'];
    const headerType = (Array.isArray(raw) ? raw[0] : raw) ?? '';
    const bodyType = typeof parsed.__type === 'string' ? parsed.__type : '';
    const name = (headerType.split(':')[0] || bodyType.split('#').pop() || '').trim();
    const text = [parsed.message, parsed.Message].find((m) => typeof m === 'string' && m.length > 0);
    return {
        message: text ?? `bad response status code ${status}`,
        type: name || 'upstream_error',
        code: name,
    };
}
//# sourceMappingURL=errors.js.map