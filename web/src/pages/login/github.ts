import type { StatusData } from '@switchyard/shared';
import { api } from '../../api/client';
import { storedAffCode } from '../register/affCode';
import { webUrl } from '../../lib/safeUrl';

const GITHUB = 'https://github.com';

/**
 * Asks the server for an OAuth state (carrying the stored invite code), then shows GitHub's authorize page in a new
 * window. The window opens at once, inside the click, so no popup blocker stops it; it gets its address when the
 * state arrives and closes again if none does.
 */
export async function openGitHubAuthorize(status: Partial<StatusData>): Promise<void> {
  const win = window.open('', '_blank');
  // The new window needs no way back into this one.
  if (win) win.opener = null;
  try {
    const aff = storedAffCode();
    const res = await api.get<string>('/api/oauth/state', aff ? { aff } : undefined);
    if (!res.success || !res.data) {
      win?.close();
      return;
    }
    // The address is the operator's (GITHUB_OAUTH_URL); the window opened from here shares the console's origin.
    const url = new URL(`${webUrl(status.github_oauth_url) ?? GITHUB}/login/oauth/authorize`);
    url.searchParams.set('client_id', status.github_client_id ?? '');
    url.searchParams.set('state', res.data);
    url.searchParams.set('scope', 'user:email');
    if (win) win.location.href = url.toString();
    else window.open(url.toString());
  } catch (err) {
    win?.close();
    throw err;
  }
}
