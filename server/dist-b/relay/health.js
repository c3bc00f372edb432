import { CHANNEL_STATUS } from '@switchyard/shared';
import { setChannelStatus } from '../store/channels.js';
const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const DISABLING_TYPES = new Set(['insufficient_quota', 'insufficient_user_quota', 'authentication_error', 'permission_error', 'forbidden']);
/**
 * Whether a failure means the channel itself is unusable (bad key, no credit, banned account) rather than a
 * passing problem: 401, the listed error codes and types, or a configured keyword in the message.
 */
export function disablesChannel(signal, keywords) {
    if (signal.status === 401 || signal.credentials)
        return true;
    if (DISABLING_CODES.has(signal.code) || DISABLING_TYPES.has(signal.type))
        return true;
    const message = signal.message.toLowerCase();
    if (!message)
        return false;
    return keywords
        .split('\n')
        .map((k) => k.trim().toLowerCase())
        .some((k) => k !== '' && message.includes(k));
}
/** Auto-disable (status 3) when enabled globally and for the channel, keeping the reason for the console. */
export async function reportChannelFailure(ctx, channel, signal) {
    if (!ctx.options.get('AutomaticDisableChannelEnabled') || !channel.autoBan)
        return;
    if (channel.status !== CHANNEL_STATUS.ENABLED)
        return;
    if (!disablesChannel(signal, ctx.options.get('AutomaticDisableKeywords')))
        return;
    const reason = `status ${signal.status}: ${signal.message}`.slice(0, 500);
    try {
        await setChannelStatus(ctx, channel.id, CHANNEL_STATUS.AUTO_DISABLED, reason);
        ctx.log.warn({ channel: channel.id, reason }, `通道「${channel.name}」（#${channel.id}）已被禁用`);
    }
    catch (err) {
        ctx.log.error({ err, channel: channel.id }, 'could not auto-disable channel');
    }
}
//# sourceMappingURL=health.js.map