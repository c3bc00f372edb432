import type { RedemptionDto } from '@switchyard/shared';
import { api, unwrap } from './client';

/** What the add drawer sends: integers for quota and count (spec §5). */
export interface NewRedemptionInput {
  name: string;
  quota: number;
  count: number;
}

export const redemptionApi = {
  list: (p: number, pageSize: number) => unwrap(api.get<RedemptionDto[]>('/api/redemption/', { p, page_size: pageSize })),
  search: (keyword: string) => unwrap(api.get<RedemptionDto[]>('/api/redemption/search', { keyword })),
  get: (id: number) => unwrap(api.get<RedemptionDto>(`/api/redemption/${id}`)),
  /** Resolves with the keys of the new codes. */
  create: (input: NewRedemptionInput) => unwrap(api.post<string[]>('/api/redemption/', input)),
  /** The loaded code with its changed name and quota. */
  update: (code: RedemptionDto) => unwrap(api.put<RedemptionDto>('/api/redemption/', code)),
  setStatus: (id: number, status: number) =>
    unwrap(api.put<RedemptionDto>('/api/redemption/', { id, status }, { query: { status_only: true } })),
  remove: (id: number) => unwrap(api.delete(`/api/redemption/${id}/`)),
};
