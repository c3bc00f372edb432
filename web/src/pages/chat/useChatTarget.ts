import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { TOKEN_STATUS } from '@switchyard/shared';
import { tokenApi } from '../../api/token';
import { useStatus } from '../../app/status';
import { chatLinkList, fillChatLink, gatewayAddress, readChatLinks } from '../../lib/chatLinks';
import { linkKind } from '../../lib/safeUrl';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';

export type ChatTarget =
  | { state: 'problem'; message: string }
  | { state: 'loading' }
  | { state: 'ready'; name: string; url: string; kind: 'web' | 'app' };

/** The key of the user's first enabled token, among the first 100 (as the chat pages of the spec load them). */
async function firstEnabledKey(): Promise<string | null> {
  const tokens = await tokenApi.list(0, 100);
  return tokens.find((token) => token.status === TOKEN_STATUS.ENABLED)?.key ?? null;
}

/**
 * The chat target at `index` (null: an id that names none) filled with the user's first enabled token. Without an
 * enabled token the user is told so and sent to /token after 1.5 s.
 */
export function useChatTarget(index: number | null): ChatTarget {
  const { status } = useStatus();
  const navigate = useNavigate();
  const links = readChatLinks(status, t('聊天'));
  const link = index === null ? undefined : chatLinkList(links)[index];
  const tokenKey = useQuery({ queryKey: ['chat-token'], queryFn: firstEnabledKey, enabled: link !== undefined, gcTime: 0 });
  const noToken = tokenKey.isSuccess && tokenKey.data === null;
  useEffect(() => {
    if (!noToken) return;
    notify.error(t('当前没有可用的启用令牌，请确认是否有令牌处于启用状态！'));
    const timer = setTimeout(() => void navigate('/token'), 1500);
    return () => clearTimeout(timer);
  }, [noToken, navigate]);

  if (links.kind === 'bad') return { state: 'problem', message: t('聊天链接配置错误，请联系管理员') };
  if (links.kind === 'none') return { state: 'problem', message: t('请联系管理员配置聊天链接') };
  if (!link) return { state: 'problem', message: t('该聊天链接不存在，请从侧边栏重新选择') };
  if (!tokenKey.data) return { state: 'loading' };
  const url = fillChatLink(link.template, tokenKey.data, gatewayAddress(status.server_address, window.location.origin));
  // How the filled link may be opened: a web page in a frame, an app link by navigating to it, anything else never.
  const kind = linkKind(url);
  if (kind === 'unsafe') return { state: 'problem', message: t('聊天链接配置错误，请联系管理员') };
  return { state: 'ready', name: link.name, url, kind };
}
