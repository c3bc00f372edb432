import { useNavigate } from 'react-router';
import type { LoginUser } from '@switchyard/shared';
import type { Envelope } from '@switchyard/shared';
import { useAuth } from '../../app/auth';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';

/** After a WeChat or Telegram sign-in: store the user, greet, and go to the root (spec §2). */
export function useOAuthLoginDone(): (res: Envelope<LoginUser>) => boolean {
  const { setUser } = useAuth();
  const navigate = useNavigate();
  return (res) => {
    if (!res.success || !res.data) return false;
    setUser(res.data);
    notify.success(t('登录成功！'));
    void navigate('/');
    return true;
  };
}
