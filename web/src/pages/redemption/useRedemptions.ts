import { useQuery } from '@tanstack/react-query';
import type { RedemptionDto } from '@switchyard/shared';
import { redemptionApi } from '../../api/redemption';
import { useLazyList } from '../../components/useLazyList';

/** The code list: lazy pages, or the search result while a keyword is set. */
export function useRedemptions(keyword: string | null) {
  return useLazyList<RedemptionDto>({
    key: ['redemptions'],
    fetchPage: (p, size) => redemptionApi.list(p, size),
    search: keyword !== null ? { terms: [keyword], run: () => redemptionApi.search(keyword) } : null,
  });
}

export function useRedemption(id: number | null) {
  return useQuery({
    queryKey: ['redemption', id],
    queryFn: () => redemptionApi.get(id as number),
    enabled: id !== null,
    gcTime: 0,
  });
}
