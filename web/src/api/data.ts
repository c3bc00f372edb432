import type { QuotaDataDto } from '@switchyard/shared';
import { api, unwrap } from './client';

export interface QuotaDataQuery {
  /** Unix seconds. */
  start_timestamp: number;
  end_timestamp: number;
  /** Admin view only: one user; empty means every user. */
  username?: string;
}

/** The data dashboard's hourly usage per model (spec §7). */
export const dataApi = {
  /** Every user summed, or one user by name (admin). */
  all: (query: QuotaDataQuery) => unwrap(api.get<QuotaDataDto[]>('/api/data/', { ...query })),
  /** The signed-in user's own usage (at most one month per call). */
  self: ({ start_timestamp, end_timestamp }: QuotaDataQuery) =>
    unwrap(api.get<QuotaDataDto[]>('/api/data/self', { start_timestamp, end_timestamp })),
};
