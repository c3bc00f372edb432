import type { ChannelKeyPage, ChannelKeyState } from '@switchyard/shared';
import { api, unwrap } from './client';

export type { ChannelKeyPage, ChannelKeyState };

const manage = <T = unknown>(body: Record<string, unknown>) => unwrap(api.post<T>('/api/channel/multi_key/manage', body));

/** POST /api/channel/multi_key/manage, one call per action. */
export const channelKeysApi = {
  status: (channelId: number, page: number, pageSize: number, status?: number) =>
    manage<ChannelKeyPage>({ channel_id: channelId, action: 'get_key_status', page, page_size: pageSize, status }),
  enable: (channelId: number, keyIndex: number) => manage({ channel_id: channelId, action: 'enable_key', key_index: keyIndex }),
  disable: (channelId: number, keyIndex: number) => manage({ channel_id: channelId, action: 'disable_key', key_index: keyIndex }),
  remove: (channelId: number, keyIndex: number) => manage({ channel_id: channelId, action: 'delete_key', key_index: keyIndex }),
  enableAll: (channelId: number) => manage({ channel_id: channelId, action: 'enable_all_keys' }),
  disableAll: (channelId: number) => manage({ channel_id: channelId, action: 'disable_all_keys' }),
  removeAutoDisabled: (channelId: number) => manage<number>({ channel_id: channelId, action: 'delete_disabled_keys' }),
};
