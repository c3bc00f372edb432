import { useQuery } from '@tanstack/react-query';
import type { TokenDto } from '@switchyard/shared';
import { tokenApi } from '../../api/token';
import { useLazyList } from '../../components/useLazyList';

export interface TokenSearch {
  keyword: string;
  token: string;
}

/** The token list: lazy pages, or the search result while a search is active. */
export function useTokens(search: TokenSearch | null) {
  return useLazyList<TokenDto>({
    key: ['tokens'],
    fetchPage: (p, size) => tokenApi.list(p, size),
    search: search
      ? { terms: [search.keyword, search.token], run: () => tokenApi.search(search.keyword, search.token) }
      : null,
  });
}

/** Models the user may limit a token to. */
export function useUserModels(enabled = true) {
  return useQuery({ queryKey: ['user-models'], queryFn: tokenApi.userModels, enabled });
}

/** Groups the user may pick for a token: group -> {desc, ratio}. */
export function useUserGroups(enabled = true) {
  return useQuery({ queryKey: ['user-groups'], queryFn: tokenApi.userGroups, enabled });
}

export function useToken(id: number | null) {
  return useQuery({
    queryKey: ['token', id],
    queryFn: () => tokenApi.get(id as number),
    enabled: id !== null,
    gcTime: 0,
  });
}
