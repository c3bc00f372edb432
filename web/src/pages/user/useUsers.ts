import { useQuery } from '@tanstack/react-query';
import type { UserDto } from '@switchyard/shared';
import { userApi } from '../../api/user';
import { useLazyList } from '../../components/useLazyList';

export interface UserSearch {
  keyword: string;
  group: string;
}

/** The user list: lazy pages, or the search result while a search is active. */
export function useUsers(search: UserSearch | null) {
  return useLazyList<UserDto>({
    key: ['users'],
    fetchPage: (p, size) => userApi.list(p, size),
    search: search ? { terms: [search.keyword, search.group], run: () => userApi.search(search.keyword, search.group) } : null,
  });
}


export function useUser(id: number) {
  return useQuery({ queryKey: ['user', id], queryFn: () => userApi.get(id), gcTime: 0 });
}
