import { STORAGE_KEYS } from '../../lib/storage';

export interface ChatTarget {
  name: string;
  url: string;
}

/** The stored chat list (a JSON list of {name: urlTemplate}); 'bad' when it does not parse. */
export function readChatTargets(): ChatTarget[] | 'bad' {
  const raw = localStorage.getItem(STORAGE_KEYS.chats);
  if (raw === null || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'bad';
  }
  if (!Array.isArray(parsed)) return 'bad';
  const targets: ChatTarget[] = [];
  for (const entry of parsed as unknown[]) {
    if (entry === null || typeof entry !== 'object') return 'bad';
    for (const [name, url] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof url === 'string') targets.push({ name, url });
    }
  }
  return targets;
}

/** Fills a chat URL template with the token key (sk-…) and the server address. */
export function chatUrl(template: string, key: string, serverAddress: string | undefined): string {
  const address = serverAddress || window.location.origin;
  return template.replaceAll('{key}', `sk-${key}`).replaceAll('{address}', address);
}
