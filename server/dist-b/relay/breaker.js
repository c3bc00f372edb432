/**
 * Circuit breaker per channel: after `threshold` failures in a row a channel rests for `cooldownMs` (the
 * distributor passes it over while others can serve); after the rest one call probes it, and a success closes the
 * breaker. In memory per node: each node learns from its own traffic.
 */
export class ChannelBreaker {
    threshold;
    cooldownMs;
    now;
    failures = new Map();
    openUntil = new Map();
    constructor(threshold = 5, cooldownMs = 30_000, now = Date.now) {
        this.threshold = threshold;
        this.cooldownMs = cooldownMs;
        this.now = now;
    }
    /** True while the channel rests. Once the rest is over, lets exactly one probe through until it reports. */
    isOpen(channelId) {
        const until = this.openUntil.get(channelId);
        if (until === undefined)
            return false;
        if (this.now() < until)
            return true;
        // Half-open: the next call probes; further calls wait for its outcome.
        this.openUntil.set(channelId, this.now() + this.cooldownMs);
        return false;
    }
    success(channelId) {
        this.failures.delete(channelId);
        this.openUntil.delete(channelId);
    }
    failure(channelId) {
        const n = (this.failures.get(channelId) ?? 0) + 1;
        this.failures.set(channelId, n);
        if (n >= this.threshold)
            this.openUntil.set(channelId, this.now() + this.cooldownMs);
    }
}
//# sourceMappingURL=breaker.js.map