import { useQuery } from '@tanstack/react-query';
import type { LogDto, LogPage } from '@switchyard/shared';
import { logApi, type LogQuery } from '../../api/log';
import { usePagedList, type ListSearch } from '../../components/usePagedList';

export type LogSearch = ListSearch<LogQuery>;

/**
 * The log list, paged lazily (spec §9). The page right after a loaded one is fetched by cursor (the server seeks
 * instead of skipping rows, so deep pages stay fast); a page reached by a jump is fetched by number.
 */
export function useLogs(self: boolean, search: LogSearch) {
  return usePagedList<LogDto, LogPage>({
    key: ['logs', self, search.run, search.query],
    fetchPage: (p, size, before) => logApi.list(self, search.query, { p, page_size: size, cursor: before?.next_cursor || undefined }),
    capped: (page) => page.total_capped,
  });
}

/** The summary badges' numbers for the same filters. */
export function useLogStat(self: boolean, search: LogSearch) {
  return useQuery({
    queryKey: ['log-stat', self, search.run, search.query],
    queryFn: () => logApi.stat(self, search.query),
    staleTime: Infinity,
  });
}
