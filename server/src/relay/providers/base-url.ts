import { defaultBaseUrl } from '@switchyard/shared';
import type { RoutedChannel } from '../../cache/routing.js';

/** The channel's base URL, or its type's default, without a trailing slash. */
export function resolveBaseUrl(channel: RoutedChannel): string {
  return (channel.baseUrl || defaultBaseUrl(channel.type)).replace(/\/+$/, '');
}
