import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { dataApi } from '../../api/data';
import type { TimeRange } from './aggregate';

export interface DataSearch {
  range: TimeRange;
  /** Admin view: one user by name, '' for every user. */
  username: string;
  /** Bumped by every click on 查询, so the same search runs again (fresh numbers). */
  run: number;
}

/** The hourly rows of the dashboard: every user's (admin, optionally one user) or the caller's own. */
export function useQuotaData(admin: boolean, search: DataSearch | null) {
  return useQuery({
    queryKey: ['quota-data', admin, search],
    queryFn: () => {
      const query = { start_timestamp: search!.range.start, end_timestamp: search!.range.end };
      return admin ? dataApi.all({ ...query, username: search!.username }) : dataApi.self(query);
    },
    enabled: search !== null,
    placeholderData: keepPreviousData,
  });
}
