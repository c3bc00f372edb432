import { useMediaQuery } from '../useMediaQuery';

/** The spec's mobile breakpoint: a viewport 600 px wide or less. */
export function useIsMobile(): boolean {
  return useMediaQuery('(max-width: 600px)');
}
