import { useQuery } from '@tanstack/react-query';

/**
 * The administrator's About text. Plain fetch on purpose: the page must stand without this call (an absent or
 * failing endpoint falls back to the default text), so its failures are not errors to toast.
 */
async function fetchAbout(): Promise<string> {
  try {
    const res = await fetch('/api/about', { headers: { Accept: 'application/json' } });
    if (!res.ok) return '';
    const body = (await res.json()) as { success?: boolean; data?: unknown };
    return body.success && typeof body.data === 'string' ? body.data.trim() : '';
  } catch {
    return '';
  }
}

export function useAboutContent() {
  return useQuery({ queryKey: ['about'], queryFn: fetchAbout, staleTime: 60_000 });
}
