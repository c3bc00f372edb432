/**
 * Calls in flight to each upstream origin, against UPSTREAM_MAX_CONNECTIONS. A call past the limit is refused at once
 * (UpstreamBusy) rather than queued: a queue behind streams that last minutes would hold callers far past any
 * first-byte timeout, while a prompt refusal lets the relay try another channel or tell the caller to come back.
 */
/** The limit was reached: the call was not sent. */
export class UpstreamBusy extends Error {
    origin;
    constructor(origin) {
        super(`calls in flight to ${origin} reached UPSTREAM_MAX_CONNECTIONS`);
        this.origin = origin;
    }
}
/** One origin's count; the handlers of its calls hold it and give their place back when they end. */
export class OriginLoad {
    inFlight = 0;
}
/** Origins tracked at most; past this, origins with nothing in flight are forgotten. */
const MAX_ORIGINS = 1000;
export class UpstreamLimit {
    max;
    loads = new Map();
    /** `max` calls in flight per origin (0: no limit). */
    constructor(max) {
        this.max = max;
    }
    /** The origin's count, to pass to `enter`. */
    loadOf(origin) {
        let load = this.loads.get(origin);
        if (!load) {
            if (this.loads.size >= MAX_ORIGINS)
                for (const [o, l] of this.loads)
                    if (l.inFlight === 0)
                        this.loads.delete(o);
            load = new OriginLoad();
            this.loads.set(origin, load);
        }
        return load;
    }
    /** Takes a place for one call; false when the origin is full. */
    enter(load) {
        if (this.max > 0 && load.inFlight >= this.max)
            return false;
        load.inFlight++;
        return true;
    }
    /** Calls in flight per origin (for diagnostics and tests). */
    snapshot() {
        const out = {};
        for (const [origin, load] of this.loads)
            if (load.inFlight > 0)
                out[origin] = load.inFlight;
        return out;
    }
}
//# sourceMappingURL=upstream-limit.js.map