import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import type { Page } from '@switchyard/shared';
import { t } from '../lib/i18n';
import { useTablePaging } from './useLazyList';

/** One run of a list's filters: a new run (the query button) starts again from page 1 with nothing cached. */
export interface ListSearch<Q> {
  query: Q;
  run: number;
}

interface PagedListOptions<T, P extends Page<T>> {
  /** Query key of this list and search (e.g. ['logs', self, search.run, search.query]); the page is appended. */
  key: readonly unknown[];
  /** Page `p` (1-based); `before` is page p - 1 when it is loaded (for lists that continue from it). */
  fetchPage: (p: number, size: number, before: P | undefined) => Promise<P>;
  /** True when the page's total is a lower bound (the server stopped counting). */
  capped?: (page: P) => boolean;
}

/** What a paged list gives its page: the rows on show and the table's pagination. */
export interface PagedList<T> {
  items: T[];
  loading: boolean;
  /** Back to page 1 (a new search). */
  resetPage(): void;
  pagination: TablePaginationConfig;
}

/**
 * A server-paged table list with a total (the log list): a page is fetched when the user
 * reaches it and kept; the previous page stays on screen while the next loads. The page size is remembered under
 * `page-size` (spec §9).
 */
export function usePagedList<T, P extends Page<T>>({ key, fetchPage, capped }: PagedListOptions<T, P>): PagedList<T> {
  const queryClient = useQueryClient();
  const { page, pageSize, setPage, change, props } = useTablePaging();
  const keyOf = (p: number) => [...key, pageSize, p];

  const list = useQuery({
    queryKey: keyOf(page),
    queryFn: () => fetchPage(page, pageSize, page > 1 ? queryClient.getQueryData<P>(keyOf(page - 1)) : undefined),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });

  const total = list.data?.total ?? 0;
  // Past a counting cap the total is a lower bound; it grows as the user pages on.
  const lowerBound = list.data !== undefined && capped !== undefined && capped(list.data);
  return {
    items: list.data?.items ?? [],
    loading: list.isFetching,
    resetPage: () => setPage(1),
    pagination: {
      ...props,
      total,
      showTotal: (n: number) => t(lowerBound ? '共 {total}+ 条' : '共 {total} 条', { total: n }),
      onChange: (next: number, size: number) => void change(next, size),
    },
  };
}
