import { defaultBaseUrl } from '@switchyard/shared';
import { channelMemo } from './channel-memo.js';
/** The channel's base URL, or its type's default, without a trailing slash. */
export function resolveBaseUrl(channel) {
    return channelMemo(channel, 'base-url', () => (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, ''));
}
//# sourceMappingURL=base-url.js.map