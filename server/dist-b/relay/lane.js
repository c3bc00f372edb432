import proxyAddr from '@fastify/proxy-addr';
import { contentEncoding, decodeBody } from './body.js';
import { allowBrowsers } from './cors.js';
import { RelayError, shuttingDown } from './errors.js';
import { guarded, writeError } from './routes/endpoint.js';
let sequence = 0;
/** One call taken by the lane, with its body read whole. */
class LaneExchange {
    req;
    res;
    body;
    trust;
    id = `relay-${(++sequence).toString(36)}`;
    address;
    parsedQuery;
    /**
     * The peer's address, taken while the connection is open: the consume log reads the client's address after the
     * answer, when a client that left has taken its socket's address with it.
     */
    peerAddress;
    constructor(req, res, 
    /** As received; replaced by the inflated bytes when it came compressed. */
    body, trust) {
        this.req = req;
        this.res = res;
        this.body = body;
        this.trust = trust;
        this.peerAddress = req.socket.remoteAddress ?? '';
    }
    get headers() {
        return this.req.headers;
    }
    get ip() {
        if (this.address === undefined) {
            const peer = { headers: this.req.headers, socket: { remoteAddress: this.peerAddress } };
            this.address = proxyAddr(peer, this.trust) ?? '';
        }
        return this.address;
    }
    get query() {
        if (!this.parsedQuery) {
            const url = this.req.url ?? '';
            const at = url.indexOf('?');
            this.parsedQuery = at < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(at + 1)));
        }
        return this.parsedQuery;
    }
}
export class RelayLane {
    ctx;
    options;
    /** Set when the server starts closing: calls that still arrive are turned away as Fastify would (503). */
    closing = false;
    /** Calls taken and not yet answered (body being read, or being relayed). */
    inFlight = 0;
    drained = null;
    exact = new Map();
    /** Paths that end in a parameter: the fixed part before it. */
    prefixed = [];
    constructor(ctx, endpoints, options) {
        this.ctx = ctx;
        this.options = options;
        for (const endpoint of endpoints) {
            const param = endpoint.path.lastIndexOf('/:');
            if (param < 0)
                this.exact.set(endpoint.path, endpoint);
            else
                this.prefixed.push([endpoint.path.slice(0, param + 1), endpoint]);
        }
    }
    /**
     * Stops taking calls, waits for those in flight to be answered, then closes the connections they leave idle
     * (keep-alive connections that were busy when the server began to close would otherwise hold it open).
     */
    async close(server) {
        this.closing = true;
        if (this.inFlight > 0)
            await new Promise((resolve) => (this.drained = resolve));
        server.closeIdleConnections();
    }
    finished() {
        if (--this.inFlight === 0 && this.drained) {
            this.drained();
            this.drained = null;
        }
    }
    /** Serves the request when it is a relay call; false leaves it to Fastify. */
    take(req, res) {
        if (req.method !== 'POST')
            return false;
        const match = this.match(req.url ?? '');
        if (!match)
            return false;
        if (req.headers.origin !== undefined)
            allowBrowsers(res);
        if (this.closing) {
            res.setHeader('connection', 'close');
            writeError(res, shuttingDown(), match.endpoint.format);
            return true;
        }
        this.inFlight++;
        let counted = true;
        const done = () => {
            if (!counted)
                return;
            counted = false;
            this.finished();
        };
        this.readBody(req, res, match, done);
        return true;
    }
    match(url) {
        const q = url.indexOf('?');
        const path = q < 0 ? url : url.slice(0, q);
        const endpoint = this.exact.get(path);
        if (endpoint)
            return { endpoint, param: '' };
        for (const [prefix, candidate] of this.prefixed) {
            if (path.length === prefix.length || !path.startsWith(prefix) || path.indexOf('/', prefix.length) >= 0)
                continue;
            try {
                return { endpoint: candidate, param: decodeURIComponent(path.slice(prefix.length)) };
            }
            catch {
                return null; // a malformed escape: Fastify answers it
            }
        }
        return null;
    }
    readBody(req, res, { endpoint, param }, done) {
        const limit = this.options.bodyLimit;
        const tooLarge = () => {
            res.setHeader('connection', 'close');
            writeError(res, new RelayError(413, '请求体过大', 'request_too_large', 'invalid_request_error'), endpoint.format);
            done();
        };
        const declared = Number(req.headers['content-length']);
        if (declared > limit) {
            tooLarge();
            req.resume();
            return;
        }
        const parts = [];
        let size = 0;
        const onData = (chunk) => {
            size += chunk.length;
            if (size > limit) {
                req.off('data', onData);
                req.off('end', onEnd);
                tooLarge();
                req.resume();
                return;
            }
            parts.push(chunk);
        };
        const onEnd = () => {
            const body = size === 0 ? undefined : parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
            const ex = new LaneExchange(req, res, body, this.options.trust);
            const encoding = contentEncoding(req.headers['content-encoding']);
            void guarded(this.ctx, ex, endpoint.format, async () => {
                if (encoding)
                    ex.body = await decodeBody(body, encoding, limit);
                await endpoint.handle(this.ctx, ex, param);
            }).finally(done);
        };
        req.on('data', onData);
        req.on('end', onEnd);
        // A client that goes away mid-body: nothing to answer.
        req.on('error', () => {
            res.destroy();
            done();
        });
    }
}
/** Trust for X-Forwarded-For, from the TRUSTED_PROXIES list (addresses, CIDRs, or loopback / linklocal / uniquelocal). */
export function compileTrust(list) {
    return proxyAddr.compile(list);
}
//# sourceMappingURL=lane.js.map