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
 * After any sign-in: store the user, greet, go on to `to`, and warn root when the fresh status says the default
 * password is still in place.
 */
export function useSignedIn(): (user: LoginUser, to: string) => void {
  const { setUser } = useAuth();
  const { reload } = useStatus();
  const navigate = useNavigate();
  const warnDefaultPassword = useDefaultPasswordWarning();
  return (user, to) => {
    setUser(user);
    notify.success(t('登录成功！'));
    void navigate(to);
    void reload().then((fresh) => {
      if (user.username === ROOT_USERNAME && fresh?.root_default_password) warnDefaultPassword();
    });
  };
}

/** Password sign-in, which goes on to /token. Resolves false when the server refused. */
export function useLogin(): (username: string, password: string, turnstile: string) => Promise<boolean> {
  const signedIn = useSignedIn();
  return async (username, password, turnstile) => {
    const res = await api.post<LoginUser>('/api/user/login', { username, password }, { query: { turnstile } });
    if (!res.success || !res.data) return false;
    signedIn(res.data, '/token');
    return true;
  };
}
