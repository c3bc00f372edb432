import { CHANNEL_STATUS } from '@switchyard/shared';
import type { RoutedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import { changeKeyPool, keyStatus, withKeyStatus } from '../store/channel-keys.js';

/*
 * Which key of a channel a call uses. A single-key channel's key is used whole (index -1). A multi-key channel
 * picks among its enabled keys per call: `random` uniformly, `polling` in turn, anything else (imported rows) the
 * first enabled key, as the established gateway does. The round-robin position is kept per process, starting from
 * the stored multi_key_polling_index: writing it back on every call would put a database write on the hot path,
 * and each worker going round in turn still spreads a node's calls evenly over the keys.
 */

export interface PickedKey {
  /** The key's index in the channel, -1 for a single-key channel. */
  index: number;
  key: string;
}

const NONE: ReadonlySet<number> = new Set();
/** Channel id -> how many calls this process has sent it in polling mode (the next turn). */
const turns = new Map<number, number>();

/**
 * A key for one call, skipping the indexes in `exclude`; null when the channel has no enabled key left. `prefer` (a
 * session's key, session-affinity.ts) is taken while it is enabled and not excluded.
 */
export function pickKey(channel: RoutedChannel, exclude: ReadonlySet<number> = NONE, random: () => number = Math.random, prefer = -1): PickedKey | null {
  const pool = channel.keyPool;
  if (!pool) return { index: -1, key: channel.key.trim() };
  const open = exclude.size === 0 ? pool.enabled : pool.enabled.filter((k) => !exclude.has(k.index));
  if (open.length === 0) return null;
  if (prefer >= 0) {
    const preferred = open.find((k) => k.index === prefer);
    if (preferred) return preferred;
  }
  if (pool.mode === 'random') return open[Math.floor(random() * open.length)];
  if (pool.mode !== 'polling') return open[0];
  const turn = turns.get(channel.id) ?? pool.pollingStart;
  turns.set(channel.id, turn + 1);
  return open[turn % open.length];
}

/**
 * Extra attempts one call may make on other keys after keys were refused. They do not count against RetryTimes
 * (a refused key is the gateway's own stale configuration, not the upstream's trouble), but are capped so a pool
 * full of dead keys cannot hold one call for long.
 */
export const MAX_KEY_RETRIES = 3;

/** The keys one call has tried, so a retry after a refused key takes another key of the same channel. */
export class CallKeys {
  private readonly tried = new Map<number, Set<number>>();
  private retries = 0;

  pick(channel: RoutedChannel, prefer = -1): PickedKey | null {
    const picked = pickKey(channel, this.tried.get(channel.id), Math.random, prefer);
    if (picked && picked.index >= 0) {
      const set = this.tried.get(channel.id) ?? new Set<number>();
      set.add(picked.index);
      this.tried.set(channel.id, set);
    }
    return picked;
  }

  /** Whether the channel has an enabled key this call has not tried yet. */
  hasAnother(channel: RoutedChannel): boolean {
    const tried = this.tried.get(channel.id);
    return channel.keyPool?.enabled.some((k) => !tried?.has(k.index)) ?? false;
  }

  /** After a refused key: whether the call goes on with another key of this channel (and takes the retry). */
  retryOnAnother(channel: RoutedChannel): boolean {
    if (this.retries >= MAX_KEY_RETRIES || !this.hasAnother(channel)) return false;
    this.retries++;
    return true;
  }
}

/**
 * Switches one key off (status 3) with its reason and time, when auto-disable is on globally and for the channel;
 * the channel goes off with its last key. Many calls failing on one key at once disable it once.
 */
export async function autoDisableKey(ctx: AppContext, channel: RoutedChannel, index: number, reason: string): Promise<void> {
  if (!ctx.options.get('AutomaticDisableChannelEnabled') || !channel.autoBan) return;
  try {
    const changed = await changeKeyPool(ctx, channel.id, (keys, info) =>
      index < keys.length && keyStatus(info, index) === CHANNEL_STATUS.ENABLED
        ? { keys, info: withKeyStatus(info, index, CHANNEL_STATUS.AUTO_DISABLED, reason) }
        : null,
    );
    if (changed) ctx.log.warn({ channel: channel.id, key: index, reason }, `通道「${channel.name}」（#${channel.id}）的密钥 #${index} 已被禁用`);
  } catch (err) {
    ctx.log.error({ err, channel: channel.id }, 'could not auto-disable a channel key');
  }
}

/** Switches an auto-disabled key back on (the all-channel test, when auto-enable is on). */
export async function autoEnableKey(ctx: AppContext, channelId: number, index: number): Promise<boolean> {
  return changeKeyPool(ctx, channelId, (keys, info) =>
    index < keys.length && keyStatus(info, index) === CHANNEL_STATUS.AUTO_DISABLED ? { keys, info: withKeyStatus(info, index, CHANNEL_STATUS.ENABLED) } : null,
  );
}
