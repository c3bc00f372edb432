import { CHANNEL_STATUS } from '@switchyard/shared';
import type { RoutedChannel } from '../cache/routing.js';
import type { AppContext } from '../context.js';
import { setChannelStatus } from '../store/channels.js';
import { autoDisableKey } from './channel-keys.js';

/** What an upstream said when it failed, as far as channel health is concerned. */
export interface FailureSignal {
  /** The upstream's own status (before status_code_mapping and before the gateway rewords it for the caller). */
  status: number;
  code: string;
  type: string;
  message: string;
  /** The upstream said it refused the channel's key in a status of its own (Gemini's 400 API_KEY_INVALID). */
  credentials?: boolean;
}

const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const DISABLING_TYPES = new Set(['insufficient_quota', 'insufficient_user_quota', 'authentication_error', 'permission_error', 'forbidden']);

/**
 * Whether a failure means the channel itself is unusable (bad key, no credit, banned account) rather than a
 * passing problem: 401, the listed error codes and types, or a configured keyword in the message.
 */
export function disablesChannel(signal: FailureSignal, keywords: string): boolean {
  if (signal.status === 401 || signal.credentials) return true;
  if (DISABLING_CODES.has(signal.code) || DISABLING_TYPES.has(signal.type)) return true;
  const message = signal.message.toLowerCase();
  if (!message) return false;
  return keywords
    .split('\n')
    .map((k) => k.trim().toLowerCase())
    .some((k) => k !== '' && message.includes(k));
}

/**
 * Auto-disable (status 3) when enabled globally and for the channel, keeping the reason for the console. On a
 * multi-key channel only the failing key (`keyIndex`) goes off; the channel follows with its last key.
 */
export async function reportChannelFailure(ctx: AppContext, channel: RoutedChannel, signal: FailureSignal, keyIndex = -1): Promise<void> {
  if (!disablesChannel(signal, ctx.options.get('AutomaticDisableKeywords'))) return;
  const reason = `status ${signal.status}: ${signal.message}`;
  if (channel.keyPool && keyIndex >= 0) await autoDisableKey(ctx, channel, keyIndex, reason.slice(0, 500));
  else await autoDisableChannel(ctx, channel, reason);
}

/** Switches an enabled channel off (status 3) with its reason, when auto-disable is on globally and for the channel. */
export async function autoDisableChannel(ctx: AppContext, channel: RoutedChannel, why: string): Promise<void> {
  if (!ctx.options.get('AutomaticDisableChannelEnabled') || !channel.autoBan) return;
  if (channel.status !== CHANNEL_STATUS.ENABLED) return;
  const reason = why.slice(0, 500);
  try {
    await setChannelStatus(ctx, channel.id, CHANNEL_STATUS.AUTO_DISABLED, reason);
    ctx.log.warn({ channel: channel.id, reason }, `通道「${channel.name}」（#${channel.id}）已被禁用`);
  } catch (err) {
    ctx.log.error({ err, channel: channel.id }, 'could not auto-disable channel');
  }
}
