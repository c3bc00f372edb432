import { useAuth } from '../auth';
import { useStatus } from '../status';
import { visibleMenu, type MenuEntry } from '../access';
import { readChatLinks } from '../../lib/chatLinks';
import { t } from '../../lib/i18n';

/** The sidebar items this visitor sees now (role and feature options), the chat item with its configured targets. */
export function useMenuEntries(): MenuEntry[] {
  const { user } = useAuth();
  const { status } = useStatus();
  return visibleMenu(user, status).map((m) => {
    if (m.icon !== 'chat') return m;
    const links = readChatLinks(status, t('聊天'));
    if (links.kind !== 'list') return m;
    return { ...m, children: links.links.map((link, i) => ({ path: `/chat/${i}`, label: link.name })) };
  });
}
