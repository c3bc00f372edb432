import { defaultBaseUrl } from '@switchyard/shared';
import type { RoutedChannel } from '../../cache/routing.js';
import { channelMemo } from './channel-memo.js';

/** The channel's base URL, or its type's default, without a trailing slash. */
export function resolveBaseUrl(channel: RoutedChannel): string {
  return channelMemo(channel, 'base-url', () => (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, ''));
}
