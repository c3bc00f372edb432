/** Values remembered per channel; past this many for one channel its memory starts over. */
const MAX_PER_CHANNEL = 1000;
const memos = new WeakMap();
/**
 * A value computed from a channel alone (its base URL, its request headers), remembered as long as that channel
 * object lives. Channel objects are immutable snapshots replaced on every change, so nothing goes stale.
 */
export function channelMemo(channel, key, compute) {
    let memo = memos.get(channel);
    if (!memo) {
        memo = new Map();
        memos.set(channel, memo);
    }
    if (memo.has(key))
        return memo.get(key);
    const value = compute();
    if (memo.size >= MAX_PER_CHANNEL)
        memo.clear();
    memo.set(key, value);
    return value;
}
//# sourceMappingURL=channel-memo.js.map