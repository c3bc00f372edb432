import { useSyncExternalStore } from 'react';

/** The spec's mobile breakpoint: a viewport 600 px wide or less. */
const QUERY = '(max-width: 600px)';

function subscribe(onChange: () => void): () => void {
  const mql = window.matchMedia(QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches);
}
