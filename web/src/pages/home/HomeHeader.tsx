import { Button, Flex, Typography, theme } from 'antd';
import { Link } from 'react-router';
import { useAuth } from '../../app/auth';
import { siteLogo, useStatus } from '../../app/status';
import { LinkButton } from '../../components/LinkButton';
import { t } from '../../lib/i18n';

/** The root page has no console layout; this bar keeps the way into the console (and the about page) open. */
export function HomeHeader() {
  const { status } = useStatus();
  const { user } = useAuth();
  const { token } = theme.useToken();
  return (
    <Flex
      component="header"
      align="center"
      justify="space-between"
      style={{ padding: '12px 24px', borderBottom: `1px solid ${token.colorSplit}` }}
    >
      <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 10, color: token.colorText }}>
        <img src={siteLogo(status)} alt="" width={28} height={28} />
        <Typography.Text strong style={{ fontSize: 18 }}>
          {status.system_name || 'Switchyard'}
        </Typography.Text>
      </Link>
      <Flex gap={8} component="nav">
        <Link to="/about">
          <Button type="text">{t('关于')}</Button>
        </Link>
        {user ? (
          <LinkButton to="/token" type="primary">
            {t('进入控制台')}
          </LinkButton>
        ) : (
          <>
            <LinkButton to="/login">{t('登录')}</LinkButton>
            <LinkButton to="/register" type="primary">
              {t('注册')}
            </LinkButton>
          </>
        )}
      </Flex>
    </Flex>
  );
}
