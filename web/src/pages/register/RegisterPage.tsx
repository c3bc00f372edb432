import { useEffect } from 'react';
import { Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../../components/AuthCard';
import { RegisterForm } from './RegisterForm';
import { rememberAffCode } from './affCode';
import { t } from '../../lib/i18n';

export default function RegisterPage() {
  const [params] = useSearchParams();
  const aff = params.get('aff');
  useEffect(() => rememberAffCode(aff), [aff]);
  return (
    <AuthCard title={t('新用户注册')}>
      <RegisterForm />
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        {t('已有账户？')}
        <Link to="/login">{t('点击登录')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
