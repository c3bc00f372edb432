import { useQuery } from '@tanstack/react-query';
import { fetchSiteText } from '../../api/siteContent';

/** The administrator's home page content ('' when unset: the built-in welcome shows). */
export function useHomePageContent(enabled: boolean) {
  return useQuery({
    queryKey: ['home_page_content'],
    queryFn: () => fetchSiteText('/api/home_page_content'),
    enabled,
    staleTime: 60_000,
  });
}
