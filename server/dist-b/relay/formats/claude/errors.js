import { invalidField } from '../../errors.js';
import { shortValue } from '../body-schema.js';
/** Anthropic's documented error type per HTTP status; other 4xx are invalid requests, other 5xx api errors. */
const BY_STATUS = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
};
export function claudeErrorType(status) {
    return BY_STATUS[status] ?? (status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error');
}
export function claudeErrorObject(status, message) {
    return { type: 'error', error: { type: claudeErrorType(status), message } };
}
/** Claude's error body: {type:"error", error:{type, message}}, as the JSON text to send. */
export function claudeErrorBody(status, message) {
    return JSON.stringify(claudeErrorObject(status, message));
}
/** `messages.0.content`, as Anthropic names a field in its errors. */
export function claudePath(path) {
    return path.join('.');
}
const VALID = {
    string: 'a valid string',
    array: 'a valid list',
    object: 'a valid dictionary',
    integer: 'a valid integer',
    number: 'a valid number',
    boolean: 'a valid boolean',
};
/** A body problem in Anthropic's wording (`messages.0.content: Input should be a valid list`). */
export function claudeFieldError(p) {
    const path = claudePath(p.path);
    let text;
    switch (p.kind) {
        case 'required':
            text = 'Field required';
            break;
        case 'empty':
            text = 'List should have at least 1 item after validation, not 0';
            break;
        case 'value':
            text = p.expected.length > 0 && !(p.expected[0] in VALID) ? `Input should be ${p.expected.map((v) => `'${v}'`).join(' or ')}` : `Invalid value ${shortValue(p.value)}`;
            break;
        case 'type':
            text = `Input should be ${p.expected.filter((t) => t !== 'null').map((t) => VALID[t] ?? t).join(' or ')}`;
            break;
    }
    return invalidField(`${path}: ${text}`, path, 'invalid_request_error');
}
//# sourceMappingURL=errors.js.map