import { useAuth } from '../auth';
import { useStatus } from '../status';
import { visibleMenu, type MenuEntry } from '../access';

/** The sidebar items this visitor sees now (role and feature options). */
export function useMenuEntries(): MenuEntry[] {
  const { user } = useAuth();
  const { status } = useStatus();
  return visibleMenu(user, status);
}
