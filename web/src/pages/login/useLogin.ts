import { useNavigate } from 'react-router';
import type { LoginUser } from '@switchyard/shared';
import { api } from '../../api/client';
import { useAuth } from '../../app/auth';
import { useStatus } from '../../app/status';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';
import { useDefaultPasswordWarning } from './useDefaultPasswordWarning';

const ROOT_USERNAME = 'root';

/**
 * Password sign-in: store the user, greet, go to /token, and warn root when the fresh status says the default
 * password is still in place. Resolves false when the server refused.
 */
export function useLogin(): (username: string, password: string, turnstile: string) => Promise<boolean> {
  const { setUser } = useAuth();
  const { reload } = useStatus();
  const navigate = useNavigate();
  const warnDefaultPassword = useDefaultPasswordWarning();
  return async (username, password, turnstile) => {
    const res = await api.post<LoginUser>('/api/user/login', { username, password }, { query: { turnstile } });
    if (!res.success || !res.data) return false;
    setUser(res.data);
    notify.success(t('登录成功！'));
    void navigate('/token');
    const fresh = await reload();
    if (res.data.username === ROOT_USERNAME && fresh?.root_default_password) warnDefaultPassword();
    return true;
  };
}
