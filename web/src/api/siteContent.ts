/**
 * Public site texts set by the administrator (GET /api/notice, /api/about). Plain fetch on purpose: pages must stand
 * without them (an absent or failing endpoint gives ''), so their failures are not errors to toast.
 */
export async function fetchSiteText(path: '/api/notice' | '/api/about' | '/api/home_page_content'): Promise<string> {
  try {
    const res = await fetch(path, { headers: { Accept: 'application/json' } });
    if (!res.ok) return '';
    const body = (await res.json()) as { success?: boolean; data?: unknown };
    return body.success && typeof body.data === 'string' ? body.data.trim() : '';
  } catch {
    return '';
  }
}
