import type { Page, UserDto } from '@switchyard/shared';
import { api, ApiError, unwrap } from './client';

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete';

export interface NewUserInput {
  username: string;
  display_name: string;
  password: string;
}

/** Admin update: all user fields plus id; quota numeric; a blank password leaves it unchanged. */
export type UserUpdateInput = Partial<Omit<UserDto, 'id'>> & { id: number; quota: number; password?: string };

export interface SelfUpdateInput {
  display_name?: string;
  password?: string;
  original_password?: string;
}

export const userApi = {
  /** One page of the list, p 0-based here (the server's pages count from 1). */
  list: (p: number, pageSize: number) => unwrap(api.get<Page<UserDto>>('/api/user/', { p: p + 1, page_size: pageSize })).then((page) => page.items),
  /** The first 100 matches (the most a page holds). */
  search: (keyword: string, group: string) =>
    unwrap(api.get<Page<UserDto>>('/api/user/search', { keyword, group, p: 1, page_size: 100 })).then((page) => page.items),
  get: (id: number) => unwrap(api.get<UserDto>(`/api/user/${id}`)),
  create: (input: NewUserInput) => unwrap(api.post('/api/user/', input)),
  update: (input: UserUpdateInput) => unwrap(api.put('/api/user/', input)),
  manage: (id: number, action: ManageAction) =>
    unwrap(api.post<{ status: number; role: number }>('/api/user/manage', { id, action })),
  /** All group names (admin). */

  self: () => unwrap(api.get<UserDto>('/api/user/self')),
  updateSelf: (input: SelfUpdateInput) => unwrap(api.put('/api/user/self', input)),
  deleteSelf: () => unwrap(api.delete('/api/user/self')),
  /** A fresh system access token. */
  accessToken: () => unwrap(api.get<string>('/api/user/token')),
  /** The invite code. */
  affCode: () => unwrap(api.get<string>('/api/user/aff')),
  /** Moves invite earnings (quota units) to the balance; resolves with the server's message. */
  affTransfer: async (quota: number) => {
    const res = await api.post('/api/user/aff_transfer', { quota });
    if (!res.success) throw new ApiError(res.message, 200);
    return res.message;
  },
  models: () => unwrap(api.get<string[]>('/api/user/models')),
};
