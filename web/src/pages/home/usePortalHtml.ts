import { useQuery } from '@tanstack/react-query';

export const PORTAL_PAGE = '/portal/index.html';

/**
 * The portal page's HTML, or null when the server has none. A path the server does not know may come back as
 * the console itself (the SPA fallback); that is treated as no portal rather than nesting the console.
 */
async function fetchPortal(): Promise<string | null> {
  try {
    const res = await fetch(PORTAL_PAGE, { headers: { Accept: 'text/html' } });
    if (!res.ok) return null;
    const html = await res.text();
    if (!html.trim() || html.includes('<div id="root">')) return null;
    return html;
  } catch {
    return null;
  }
}

export function usePortalHtml() {
  return useQuery({ queryKey: ['portal'], queryFn: fetchPortal, staleTime: Infinity });
}
