import { useCallback, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { getPageSize, setPageSize as storePageSize } from '../lib/storage';

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/**
 * The page on show and the page size of a table, the size remembered in local storage (the shared page-size key
 * unless told). Choosing another size goes back to page 1; `change` says whether it was a move to another page.
 */
export function useTablePaging(pageSizeKey?: string) {
  const [pageSize, setPageSizeState] = useState(() => getPageSize(pageSizeKey));
  const [page, setPage] = useState(1);
  const change = (next: number, size: number): 'page' | 'size' => {
    if (size !== pageSize) {
      storePageSize(size, pageSizeKey);
      setPageSizeState(size);
      setPage(1);
      return 'size';
    }
    setPage(next);
    return 'page';
  };
  /** The pagination props that do not depend on the list (total and onChange do). */
  const props = { current: page, pageSize, showSizeChanger: true, pageSizeOptions: PAGE_SIZE_OPTIONS };
  return { page, pageSize, setPage, change, props };
}

interface LazyListOptions<T> {
  /** Query key prefix of this list (e.g. ['tokens']). */
  key: readonly unknown[];
  /** One page, p 0-based. A page shorter than size means there is no further page. */
  fetchPage: (p: number, size: number) => Promise<T[]>;
  /** Set while a search is active: the search terms (part of the cache key) and the call. */
  search: { terms: readonly unknown[]; run: () => Promise<T[]> } | null;
  /** Local-storage key remembering this table's page size (default: the shared page-size key). */
  pageSizeKey?: string;
}

/**
 * A table list paged lazily (spec §9): pages are fetched one at a time and kept; the next page is fetched when
 * the user reaches the page after the last loaded one. A search replaces the list with its result.
 */
export function useLazyList<T extends { id: number }>({ key, fetchPage, search, pageSizeKey }: LazyListOptions<T>) {
  const queryClient = useQueryClient();
  const { pageSize, setPage, change, props } = useTablePaging(pageSizeKey);

  const listKey = [...key, 'list', pageSize];
  const searchKey = search ? [...key, 'search', ...search.terms] : [...key, 'search'];

  const list = useInfiniteQuery({
    queryKey: listKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam, pageSize),
    initialPageParam: 0,
    getNextPageParam: (last, all) => (last.length >= pageSize ? all.length : undefined),
    enabled: search === null,
  });
  const found = useQuery({
    queryKey: searchKey,
    queryFn: () => (search ? search.run() : Promise.resolve([] as T[])),
    enabled: search !== null,
  });

  const items: T[] = search ? (found.data ?? []) : (list.data?.pages.flat() ?? []);
  const loadedPages = Math.ceil(items.length / pageSize);
  // One extra page keeps the "next" button alive while the server may hold more.
  const total = !search && list.hasNextPage ? items.length + pageSize : items.length;

  const onPageChange = (next: number, size: number) => {
    if (change(next, size) === 'size') return;
    if (!search && next > loadedPages && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };

  // Stable callbacks (keyed on the serialized cache keys) so pages can memoize their columns.
  const listKeyId = JSON.stringify(listKey);
  const searchKeyId = JSON.stringify(searchKey);
  const baseKeyId = JSON.stringify(key);

  /** Changes one row in the cached list (and search result) without a refetch. */
  const patch = useCallback(
    (id: number, change: Partial<T>) => {
      const apply = (row: T) => (row.id === id ? { ...row, ...change } : row);
      queryClient.setQueryData<InfiniteData<T[], number>>(JSON.parse(listKeyId) as unknown[], (old) =>
        old ? { ...old, pages: old.pages.map((p) => p.map(apply)) } : old,
      );
      queryClient.setQueryData<T[]>(JSON.parse(searchKeyId) as unknown[], (old) => old?.map(apply));
    },
    [queryClient, listKeyId, searchKeyId],
  );

  const refresh = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: JSON.parse(baseKeyId) as unknown[] });
  }, [queryClient, baseKeyId]);

  return {
    items,
    loading: search ? found.isFetching : list.isFetching,
    pagination: { ...props, total, onChange: onPageChange },
    setPage,
    patch,
    refresh,
  };
}
