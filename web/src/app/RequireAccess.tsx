import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Result } from 'antd';
import { useAuth } from './auth';
import { canAccess, type Access } from './access';
import { LinkButton } from '../components/LinkButton';
import { t } from '../lib/i18n';

/**
 * Client-side gate of a route: signed-out visitors of a private page go to /login; a signed-in user whose role
 * is too low sees a refusal (the server enforces roles as well).
 */
export function RequireAccess({ access, children }: { access: Access; children: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  if (access === 'public' || canAccess(access, user)) return children;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return (
    <Result
      status="403"
      title="403"
      subTitle={t('无权进行此操作，权限不足')}
      extra={
        <LinkButton to="/token" type="primary">
          {t('返回控制台')}
        </LinkButton>
      }
    />
  );
}
