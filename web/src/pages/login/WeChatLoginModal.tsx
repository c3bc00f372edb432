import type { LoginUser } from '@switchyard/shared';
import { api } from '../../api/client';
import { WeChatCodeModal } from '../../components/WeChatCodeModal';
import { useOAuthLoginDone } from './useOAuthLogin';
import { t } from '../../lib/i18n';

/** Sign-in with the code the WeChat official account replies with. */
export function WeChatLoginModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const done = useOAuthLoginDone();
  return (
    <WeChatCodeModal
      open={open}
      title={t('微信扫码登录')}
      submitText={t('登录')}
      onClose={onClose}
      onSubmit={async (code) => done(await api.get<LoginUser>('/api/oauth/wechat', { code }))}
    />
  );
}
