import { invalidField } from '../../errors.js';
import { shortValue } from '../body-schema.js';
/** google.rpc.Code names by the HTTP status Google maps them to. */
const STATUS_NAMES = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    409: 'ABORTED',
    429: 'RESOURCE_EXHAUSTED',
    499: 'CANCELLED',
    500: 'INTERNAL',
    501: 'UNIMPLEMENTED',
    502: 'UNAVAILABLE',
    503: 'UNAVAILABLE',
    504: 'DEADLINE_EXCEEDED',
};
export function geminiStatusName(httpStatus) {
    return STATUS_NAMES[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : httpStatus === 402 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT');
}
/** Gemini's error shape: {error: {code, message, status}}. */
export function geminiErrorBody(httpStatus, message) {
    return { error: { code: httpStatus, message, status: geminiStatusName(httpStatus) } };
}
/** `contents[0].parts[0].text`, as Google names a field in its errors. */
export function geminiPath(path) {
    let out = '';
    for (const key of path)
        out += typeof key === 'number' ? `[${key}]` : out ? `.${key}` : key;
    return out;
}
/** Google's names for the JSON types its parser expected. */
const PROTO_TYPE = {
    string: 'TYPE_STRING',
    integer: 'TYPE_INT32',
    number: 'TYPE_FLOAT',
    boolean: 'TYPE_BOOL',
    object: 'TYPE_MESSAGE',
    array: 'TYPE_LIST',
};
/**
 * A body problem in Google's wording: `Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 123`, or for a
 * missing field `* GenerateContentRequest.contents: contents is not specified`.
 */
export function geminiFieldError(p, request) {
    const path = geminiPath(p.path);
    if (p.kind === 'required' || p.kind === 'empty') {
        const name = p.path[p.path.length - 1];
        return invalidField(`* ${request}.${path}: ${String(name)} is not specified`, path, 'INVALID_ARGUMENT');
    }
    const expected = p.expected.filter((t) => t !== 'null').map((t) => PROTO_TYPE[t] ?? `'${t}'`).join(' or ');
    return invalidField(`Invalid JSON payload received. Invalid value at '${path}' (${expected}), ${shortValue(p.value)}`, path, 'INVALID_ARGUMENT');
}
//# sourceMappingURL=errors.js.map