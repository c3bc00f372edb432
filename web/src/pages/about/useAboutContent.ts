import { useQuery } from '@tanstack/react-query';
import { fetchSiteText } from '../../api/siteContent';

/** The administrator's About text ('' when unset or unreachable: the page then shows its default text). */
export function useAboutContent() {
  return useQuery({ queryKey: ['about'], queryFn: () => fetchSiteText('/api/about'), staleTime: 60_000 });
}
