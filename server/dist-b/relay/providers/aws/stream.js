import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
/*
 * Bedrock answers InvokeModelWithResponseStream in AWS's binary event stream (application/vnd.amazon.eventstream):
 * frames of [total length u32][headers length u32][prelude CRC][headers][payload][message CRC]. Each `chunk` event's
 * payload is {"bytes": "<base64 of one Claude stream event>"}; failures arrive as exception frames. This turns them
 * back into the Claude SSE bytes Anthropic itself sends.
 */
const EMPTY = Buffer.alloc(0);
/** Prelude (12 bytes) + message CRC (4). */
const MIN_FRAME = 16;
/** AWS caps one event stream message at 16 MiB; a larger length means the framing is broken. */
const MAX_FRAME = 16 * 1024 * 1024;
/** Bedrock's stream exception types, as Claude error types. */
const CLAUDE_ERROR_TYPE = {
    throttlingException: 'rate_limit_error',
    serviceUnavailableException: 'overloaded_error',
    validationException: 'invalid_request_error',
    internalServerException: 'api_error',
    modelStreamErrorException: 'api_error',
    modelTimeoutException: 'api_error',
};
function sse(type, json) {
    return `event: ${type}\ndata: ${json}\n\n`;
}
function errorEvent(type, message) {
    return sse('error', JSON.stringify({ type: 'error', error: { type, message } }));
}
function header(m, name) {
    const h = m.headers[name];
    return h && h.type === 'string' ? h.value : '';
}
function json(bytes) {
    try {
        const v = JSON.parse(toUtf8(bytes));
        return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
    }
    catch {
        return null;
    }
}
function chunkEvent(m) {
    const payload = json(m.body);
    if (!payload || typeof payload.bytes !== 'string')
        return '';
    const text = Buffer.from(payload.bytes, 'base64').toString('utf8');
    let event;
    try {
        event = JSON.parse(text);
    }
    catch {
        return '';
    }
    if (!event || typeof event !== 'object')
        return '';
    const type = event.type;
    if (typeof type !== 'string' || !type)
        return '';
    // One SSE data line: Claude's compact JSON already is one; anything pretty-printed is compacted.
    return sse(type, /[\r\n]/.test(text) ? JSON.stringify(event) : text);
}
function exceptionEvent(m) {
    const name = header(m, ':exception-type');
    const key = name.charAt(0).toLowerCase() + name.slice(1);
    const payload = json(m.body);
    const message = typeof payload?.message === 'string' && payload.message ? payload.message : name || 'Bedrock stream exception';
    return errorEvent(CLAUDE_ERROR_TYPE[key] ?? 'api_error', message);
}
function frameToSse(m) {
    switch (header(m, ':message-type')) {
        case 'event':
            return header(m, ':event-type') === 'chunk' ? chunkEvent(m) : '';
        case 'exception':
            return exceptionEvent(m);
        case 'error':
            return errorEvent('api_error', header(m, ':error-message') || header(m, ':error-code') || 'Bedrock stream error');
        default:
            return '';
    }
}
/**
 * A fresh decoder: event stream bytes in (frames may be split across chunks or several to a chunk), Claude SSE
 * bytes out. Bytes that cannot be framed (bad length or checksum) end the stream with one Claude error event.
 */
export function bedrockEventStreamToSse() {
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    let pending = EMPTY;
    let broken = false;
    return (chunk) => {
        if (broken)
            return EMPTY;
        pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
        let out = '';
        let offset = 0;
        while (pending.length - offset >= 4) {
            const total = pending.readUInt32BE(offset);
            if (total < MIN_FRAME || total > MAX_FRAME) {
                broken = true;
                break;
            }
            if (pending.length - offset < total)
                break;
            const frame = pending.subarray(offset, offset + total);
            offset += total;
            try {
                out += frameToSse(codec.decode(frame));
            }
            catch {
                broken = true;
                break;
            }
        }
        if (broken) {
            pending = EMPTY;
            out += errorEvent('api_error', 'Bedrock 事件流数据损坏');
        }
        else {
            // Keep only the unfinished frame; copy it so the caller's chunk is not held alive by a small tail.
            pending = offset === 0 ? pending : offset === pending.length ? EMPTY : Buffer.from(pending.subarray(offset));
        }
        return out ? Buffer.from(out, 'utf8') : EMPTY;
    };
}
//# sourceMappingURL=stream.js.map