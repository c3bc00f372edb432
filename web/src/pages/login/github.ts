import { api } from '../../api/client';

/** Asks the server for an OAuth state, then opens GitHub's authorize page in a new window. */
export async function openGitHubAuthorize(clientId: string): Promise<void> {
  const res = await api.get<string>('/api/oauth/state');
  if (!res.success || !res.data) return;
  const url = new URL('https://github.com/login/oauth/authorize');
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('state', res.data);
  url.searchParams.set('scope', 'user:email');
  window.open(url.toString());
}
