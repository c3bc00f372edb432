/**
 * Circuit breaker per channel: after `threshold` failures in a row a channel rests for `cooldownMs` (the
 * distributor passes it over while others can serve); after the rest one call probes it, and a success closes the
 * breaker. In memory per node: each node learns from its own traffic.
 */
export class ChannelBreaker {
  private readonly failures = new Map<number, number>();
  private readonly openUntil = new Map<number, number>();

  constructor(
    private readonly threshold = 5,
    private readonly cooldownMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while the channel rests. Once the rest is over, lets exactly one probe through until it reports. */
  isOpen(channelId: number): boolean {
    const until = this.openUntil.get(channelId);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    // Half-open: the next call probes; further calls wait for its outcome.
    this.openUntil.set(channelId, this.now() + this.cooldownMs);
    return false;
  }

  /** Channels resting now (metrics); reading does not start a probe. */
  openChannels(): number[] {
    const now = this.now();
    return [...this.openUntil].filter(([, until]) => now < until).map(([id]) => id);
  }

  success(channelId: number): void {
    this.failures.delete(channelId);
    this.openUntil.delete(channelId);
  }

  failure(channelId: number): void {
    const n = (this.failures.get(channelId) ?? 0) + 1;
    this.failures.set(channelId, n);
    if (n >= this.threshold) this.openUntil.set(channelId, this.now() + this.cooldownMs);
  }
}
