import { invalidField } from '../../errors.js';
import { jsonType, shortValue } from '../body-schema.js';
/**
 * The documented OpenAI error type for a status, for errors that carry none of their own: the gateway's refusals
 * and upstream errors read from a format without OpenAI's types (docs/relay-errors.md).
 */
export function openAIErrorType(status) {
    switch (status) {
        case 401:
            return 'authentication_error';
        case 403:
            return 'permission_error';
        case 404:
            return 'not_found_error';
        case 429:
            return 'rate_limit_error';
        default:
            return status >= 500 ? 'server_error' : 'invalid_request_error';
    }
}
/** OpenAI's error body: {error: {message, type, param, code}}. */
export function openAIErrorBody(err) {
    return JSON.stringify({ error: { message: err.message, type: err.type || openAIErrorType(err.status), param: err.param ?? null, code: err.code ?? null } });
}
/** `messages[0].content`, as OpenAI names a field in its errors. */
export function openAIPath(path) {
    let out = '';
    for (const key of path)
        out += typeof key === 'number' ? `[${key}]` : out ? `.${key}` : key;
    return out;
}
const ARTICLE = {
    string: 'a string',
    array: 'an array',
    object: 'an object',
    integer: 'an integer',
    number: 'a number',
    boolean: 'a boolean',
    null: 'null',
};
const described = (type) => ARTICLE[type] ?? type;
function oneOf(types) {
    const words = types.filter((t) => t !== 'null').map(described);
    if (words.length === 1)
        return words[0];
    return `one of ${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
/** A body problem in OpenAI's wording (its param, type and code included), for OpenAI and Responses clients. */
export function openAIFieldError(p) {
    const param = openAIPath(p.path);
    switch (p.kind) {
        case 'required':
            return invalidField(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
        case 'empty':
            return invalidField(`Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, param, 'empty_array');
        case 'value':
            if (p.expected.length > 1 || (p.expected.length === 1 && !(p.expected[0] in ARTICLE))) {
                const supported = p.expected.map((v) => `'${v}'`).join(', ');
                return invalidField(`Invalid value: ${shortValue(p.value)}. Supported values are: ${supported}.`, param, 'invalid_value');
            }
            return invalidField(`Invalid value for '${param}': ${shortValue(p.value)}.`, param, 'invalid_value');
        case 'type':
            return invalidField(`Invalid type for '${param}': expected ${oneOf(p.expected)}, but got ${described(jsonType(p.value))} instead.`, param, 'invalid_type');
    }
}
/** Reads an upstream error body in OpenAI's shape, or falls back to the status. Never echoes HTML pages. */
export function parseOpenAIError(status, body) {
    try {
        const parsed = JSON.parse(body);
        const e = parsed.error;
        if (e && typeof e === 'object') {
            return {
                message: typeof e.message === 'string' && e.message ? e.message : `bad response status code ${status}`,
                type: typeof e.type === 'string' ? e.type : 'upstream_error',
                code: typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : '',
            };
        }
        if (typeof e === 'string')
            return { message: e, type: 'upstream_error', code: '' };
        if (typeof parsed.message === 'string')
            return { message: parsed.message, type: 'upstream_error', code: '' };
    }
    catch {
        // not JSON
    }
    return { message: `bad response status code ${status}`, type: 'upstream_error', code: '' };
}
//# sourceMappingURL=errors.js.map