import type { RoutedChannel } from '../../cache/routing.js';

/** Values remembered per channel; past this many for one channel its memory starts over. */
const MAX_PER_CHANNEL = 1000;

const memos = new WeakMap<RoutedChannel, Map<string, unknown>>();

/**
 * A value computed from a channel alone (its base URL, its request headers), remembered as long as that channel
 * object lives. Channel objects are immutable snapshots replaced on every change, so nothing goes stale.
 */
export function channelMemo<T>(channel: RoutedChannel, key: string, compute: () => T): T {
  let memo = memos.get(channel);
  if (!memo) {
    memo = new Map();
    memos.set(channel, memo);
  }
  if (memo.has(key)) return memo.get(key) as T;
  const value = compute();
  if (memo.size >= MAX_PER_CHANNEL) memo.clear();
  memo.set(key, value);
  return value;
}
