import zlib from 'node:zlib';
import { RelayError } from './errors.js';
const INFLATERS = {
    gzip: zlib.gunzip,
    'x-gzip': zlib.gunzip,
    deflate: zlib.inflate,
    br: zlib.brotliDecompress,
};
/** The encoding named by a Content-Encoding header ('' for none or identity). */
export function contentEncoding(header) {
    const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
    return value === 'identity' ? '' : value;
}
/** The body as the client meant it: inflated when it came compressed. */
export function decodeBody(body, encoding, limit) {
    if (!encoding || !body || body.length === 0)
        return Promise.resolve(body);
    const inflate = INFLATERS[encoding];
    if (!inflate)
        return Promise.reject(new RelayError(415, `不支持的 Content-Encoding：${encoding}`, 'unsupported_content_encoding', 'invalid_request_error'));
    return new Promise((resolve, reject) => {
        inflate(body, { maxOutputLength: limit }, (err, out) => {
            if (!err)
                resolve(out);
            else if (err.code === 'ERR_BUFFER_TOO_LARGE')
                reject(new RelayError(413, '请求体过大', 'request_too_large', 'invalid_request_error'));
            else
                reject(new RelayError(400, '请求体解压失败', 'invalid_content_encoding', 'invalid_request_error'));
        });
    });
}
//# sourceMappingURL=body.js.map