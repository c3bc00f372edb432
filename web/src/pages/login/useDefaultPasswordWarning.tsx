import { useCallback } from 'react';
import { App } from 'antd';
import { Link } from 'react-router';
import { t } from '../../lib/i18n';

/** The warning shown after root signs in while still using the default password (spec §2, login details). */
export function useDefaultPasswordWarning(): () => void {
  const { modal } = App.useApp();
  return useCallback(() => {
    const dialog = modal.warning({
      title: t('您正在使用默认密码！'),
      centered: true,
      content: (
        <>
          {t('请立刻修改默认密码！')}{' '}
          <Link to="/setting?tab=personal" onClick={() => dialog.destroy()}>
            {t('前往修改密码')}
          </Link>
        </>
      ),
      okText: t('我知道了'),
    });
  }, [modal]);
}
