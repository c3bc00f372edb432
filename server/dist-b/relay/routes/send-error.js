import { AppError } from '../../lib/errors.js';
import { RelayError } from '../errors.js';
import { clientFormat } from '../formats/index.js';
import { relayFormatOf } from './caller-format.js';
/** The route's declared format, else the one the path and the caller's headers tell (models lists, billing). */
export function formatOf(request) {
    return request.routeOptions.config?.format ?? relayFormatOf(request.url, request.headers);
}
/** The format a relay path speaks, for errors met before any route matched it (unknown path, malformed URL). */
export function formatOfPath(path) {
    if (path.startsWith('/v1beta') || /^\/v1\/models\/[^/?]*:/.test(path))
        return 'gemini';
    if (path.startsWith('/v1/messages'))
        return 'claude';
    if (path.startsWith('/v1/responses'))
        return 'responses';
    return 'openai';
}
/** An error in the caller's format (OpenAI, Claude or Gemini body), or the end of a stream already under way. */
export function sendError(reply, err, format = 'openai') {
    if (reply.raw.headersSent) {
        reply.raw.end();
        return;
    }
    if (err.retryAfter)
        void reply.header('retry-after', String(err.retryAfter));
    void reply.status(err.status).header('content-type', 'application/json; charset=utf-8').send(clientFormat(format).errorBody(err));
}
/** Fastify's refusals of a request body, in the relay's words (never the framework's English text). */
const FRAMEWORK = {
    FST_ERR_CTP_BODY_TOO_LARGE: [413, '请求体过大', 'request_too_large'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, '不支持的 Content-Type', 'unsupported_media_type'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, '请求体长度与 Content-Length 不符', 'invalid_content_length'],
    FST_ERR_CTP_EMPTY_TYPE: [415, 'Content-Type 不能为空', 'unsupported_media_type'],
    FST_ERR_CTP_INVALID_TYPE: [415, '不支持的 Content-Type', 'unsupported_media_type'],
};
export function toRelayError(error) {
    if (error instanceof RelayError)
        return error;
    if (error instanceof AppError)
        return new RelayError(error.status === 200 ? 400 : error.status, error.message, error.code ?? 'invalid_request');
    const known = FRAMEWORK[error.code];
    if (known)
        return new RelayError(known[0], known[1], known[2]);
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        return new RelayError(error.statusCode, '请求无效', 'invalid_request');
    }
    return new RelayError(500, '服务器内部错误', 'internal_error');
}
//# sourceMappingURL=send-error.js.map