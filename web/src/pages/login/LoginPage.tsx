import { Alert, Flex, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { LoginForm } from './LoginForm';
import { OAuthButtons } from './OAuthButtons';
import { t } from '../../lib/i18n';

export default function LoginPage() {
  const [params] = useSearchParams();
  const expired = params.get('expired') === 'true';
  return (
    <AuthCard title={t('用户登录')}>
      {expired && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('未登录或登录已过期，请重新登录！')} />
      )}
      <LoginForm />
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Typography.Text type="secondary">
          {t('没有账户？')}
          <Link to="/register">{t('点击注册')}</Link>
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('忘记密码？')}
          <Link to="/reset">{t('点击重置')}</Link>
        </Typography.Text>
      </Flex>
      <OAuthButtons />
    </AuthCard>
  );
}
