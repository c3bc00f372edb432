import { useCallback, useState } from 'react';
import { useStatus } from '../status';
import { STORAGE_KEYS } from '../../lib/storage';

/**
 * Collapsed by default on mobile or when the default-collapse option is on; the user's toggle wins until the
 * viewport crosses the mobile breakpoint again.
 */
export function useSidebarCollapse(isMobile: boolean): { collapsed: boolean; toggle(): void } {
  const { status } = useStatus();
  const defaultCollapse =
    status.default_collapse_sidebar ?? localStorage.getItem(STORAGE_KEYS.defaultCollapseSidebar) === 'true';
  const [choice, setChoice] = useState<{ collapsed: boolean; mobile: boolean } | null>(null);
  const byDefault = isMobile || defaultCollapse;
  const collapsed = choice !== null && choice.mobile === isMobile ? choice.collapsed : byDefault;
  const toggle = useCallback(() => setChoice({ collapsed: !collapsed, mobile: isMobile }), [collapsed, isMobile]);
  return { collapsed, toggle };
}
