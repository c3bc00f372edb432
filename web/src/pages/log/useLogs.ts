import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogPage } from '@switchyard/shared';
import { logApi, type LogQuery } from '../../api/log';
import { PAGE_SIZE_OPTIONS } from '../../components/useLazyList';
import { getPageSize, setPageSize as storePageSize } from '../../lib/storage';
import { t } from '../../lib/i18n';

/** One run of the filters: a new run (the query button) starts again from page 1 with nothing cached. */
export interface LogSearch {
  query: LogQuery;
  run: number;
}

/**
 * The log list, paged lazily (spec §9): a page is fetched when the user reaches it and kept. The page right after a
 * loaded one is fetched by cursor (the server seeks instead of skipping rows, so deep pages stay fast); a page
 * reached by a jump is fetched by number. The page size is remembered under `page-size`.
 */
export function useLogs(self: boolean, search: LogSearch) {
  const queryClient = useQueryClient();
  const [pageSize, setPageSizeState] = useState(() => getPageSize());
  const [page, setPage] = useState(1);
  const keyOf = (p: number) => ['logs', self, search.run, search.query, pageSize, p] as const;

  const list = useQuery({
    queryKey: keyOf(page),
    queryFn: () => {
      const before = page > 1 ? queryClient.getQueryData<LogPage>(keyOf(page - 1)) : undefined;
      return logApi.list(self, search.query, { p: page, page_size: pageSize, cursor: before?.next_cursor || undefined });
    },
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });

  const total = list.data?.total ?? 0;
  // Past the server's counting cap the total is a lower bound; it grows as the user pages on.
  const capped = list.data?.total_capped ?? false;
  return {
    items: list.data?.items ?? [],
    loading: list.isFetching,
    /** Back to page 1 (a new search). */
    resetPage: () => setPage(1),
    pagination: {
      current: page,
      pageSize,
      total,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZE_OPTIONS,
      showTotal: (n: number) => t(capped ? '共 {total}+ 条' : '共 {total} 条', { total: n }),
      onChange: (next: number, size: number) => {
        if (size !== pageSize) {
          storePageSize(size);
          setPageSizeState(size);
          setPage(1);
          return;
        }
        setPage(next);
      },
    },
  };
}

/** The summary badges' numbers for the same filters. */
export function useLogStat(self: boolean, search: LogSearch) {
  return useQuery({
    queryKey: ['log-stat', self, search.run, search.query],
    queryFn: () => logApi.stat(self, search.query),
    staleTime: Infinity,
  });
}
