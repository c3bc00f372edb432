import type { RoutedChannel } from '../cache/routing.js';

/*
 * Channel choice: the highest priority tier that still has a channel this request has not tried, then a weighted
 * random pick inside it with weight + 10 (so weight 0 still gets some traffic). Retries walk down the tiers because
 * failed channels are excluded, never picked twice.
 */

const WEIGHT_SMOOTHING = 10;

export function pickWeighted(channels: readonly RoutedChannel[], random: () => number = Math.random): RoutedChannel {
  let total = 0;
  for (const c of channels) total += Math.max(0, c.weight) + WEIGHT_SMOOTHING;
  let r = random() * total;
  for (const c of channels) {
    r -= Math.max(0, c.weight) + WEIGHT_SMOOTHING;
    if (r < 0) return c;
  }
  return channels[channels.length - 1];
}

/**
 * The next channel for this request, or undefined when every candidate has been tried. Channels resting after
 * repeated failures (`resting`) are passed over while any other candidate remains.
 */
export function chooseChannel(
  tiers: readonly (readonly RoutedChannel[])[],
  tried: ReadonlySet<number>,
  random: () => number = Math.random,
  resting: (id: number) => boolean = () => false,
): RoutedChannel | undefined {
  let fallback: RoutedChannel | undefined;
  for (const tier of tiers) {
    const untried = tried.size === 0 ? tier : tier.filter((c) => !tried.has(c.id));
    if (untried.length === 0) continue;
    const awake = untried.filter((c) => !resting(c.id));
    if (awake.length > 0) return pickWeighted(awake, random);
    fallback ??= pickWeighted(untried, random);
  }
  return fallback;
}

/** A session's channel when it is still a candidate and not resting (session-affinity.ts); else undefined. */
export function stickyChannel(tiers: readonly (readonly RoutedChannel[])[], id: number, breaker: { isOpen(id: number): boolean }): RoutedChannel | undefined {
  if (breaker.isOpen(id)) return undefined;
  for (const tier of tiers) for (const c of tier) if (c.id === id) return c;
  return undefined;
}

/**
 * Whether a failed attempt is worth another channel. Never for the gateway's own errors or a pinned channel; not
 * for timeouts the client would see again (408, 504, 524) nor for a bad request (400), which another channel would
 * refuse the same way; yes for rate limits, server errors and auth/permission failures of this channel.
 */
export function shouldRetry(status: number): boolean {
  if (status >= 200 && status < 300) return false;
  if (status === 400 || status === 408 || status === 504 || status === 524) return false;
  return true;
}
