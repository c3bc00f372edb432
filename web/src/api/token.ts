import type { TokenDto } from '@switchyard/shared';
import { api, unwrap } from './client';

/** The fields the token drawer sends (create and edit). */
export interface TokenInput {
  name: string;
  remain_quota: number;
  expired_time: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  /** Comma-joined on the wire. */
  model_limits: string;
  allow_ips: string;
  group: string;
}

export interface UserGroupInfo {
  desc: string;
  ratio: number;
}

export const tokenApi = {
  list: (p: number, size: number) => unwrap(api.get<TokenDto[]>('/api/token/', { p, size })),
  search: (keyword: string, token: string) => unwrap(api.get<TokenDto[]>('/api/token/search', { keyword, token })),
  get: (id: number) => unwrap(api.get<TokenDto>(`/api/token/${id}`)),
  /** Resolves with the envelope so a batch create can count successes without throwing. */
  create: (input: TokenInput) => api.post<TokenDto>('/api/token/', input),
  update: (id: number, input: TokenInput) => unwrap(api.put<TokenDto>('/api/token/', { id, ...input })),
  setStatus: (id: number, status: number) =>
    unwrap(api.put<TokenDto>('/api/token/', { id, status }, { query: { status_only: true } })),
  remove: (id: number) => unwrap(api.delete(`/api/token/${id}/`)),
  /** Models the signed-in user may use (for model limits). */
  userModels: () => unwrap(api.get<string[]>('/api/user/models')),
  /** Groups the signed-in user may pick for a token. */
  userGroups: () => unwrap(api.get<Record<string, UserGroupInfo>>('/api/user/groups')),
};
