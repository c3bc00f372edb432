import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { channelApi, type ChannelDto } from '../../api/channel';
import { useLazyList } from '../../components/useLazyList';
import { STORAGE_KEYS } from '../../lib/storage';

export interface ChannelSearch {
  keyword: string;
  group: string;
  model: string;
}

const BASE_KEY = ['channels'] as const;

function readIdSort(): boolean {
  return localStorage.getItem(STORAGE_KEYS.channelIdSort) === 'true';
}

/**
 * The channel list, paged lazily like the other tables, or the search result while a search is active; the page
 * size and the id sort are remembered under the channel's own storage keys (spec §9).
 */
export function useChannels(search: ChannelSearch | null) {
  const [idSort, setIdSortState] = useState(readIdSort);
  const list = useLazyList<ChannelDto>({
    key: [...BASE_KEY, idSort],
    fetchPage: (p, size) => channelApi.list(p, size, idSort),
    search: search
      ? { terms: [search.keyword, search.group, search.model], run: () => channelApi.search(search.keyword, search.group, search.model, idSort) }
      : null,
    pageSizeKey: STORAGE_KEYS.channelPageSize,
  });
  const { setPage } = list;
  const setIdSort = useCallback(
    (on: boolean) => {
      localStorage.setItem(STORAGE_KEYS.channelIdSort, String(on));
      setIdSortState(on);
      setPage(1);
    },
    [setPage],
  );
  return { ...list, idSort, setIdSort };
}


/** GET /api/channel/models may list names or OpenAI-style model objects; the console needs names. */
function modelNames(data: unknown): string[] {
  if (!Array.isArray(data)) return [];
  const names = data
    .map((m: unknown) => (typeof m === 'string' ? m : m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
    .filter((m): m is string => typeof m === 'string' && m !== '');
  return [...new Set(names)];
}

/** Every model the gateway knows (for "fill all models"); fetched on demand. */
export function useAllModels() {
  return useQuery({ queryKey: ['channel-all-models'], queryFn: async () => modelNames(await channelApi.allModels()) });
}

export function useChannel(id: number | null) {
  return useQuery({
    queryKey: ['channel', id],
    // Silent: the drawer shows its own not-found text.
    queryFn: () => channelApi.get(id as number, true),
    enabled: id !== null,
    gcTime: 0,
  });
}
