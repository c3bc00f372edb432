import { useState } from 'react';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { AuthCard } from '../../components/AuthCard';
import { useCopyText } from '../../components/useCopyText';
import { t } from '../../lib/i18n';

/**
 * /user/reset?email=&token= (the mailed link): confirming sets a new random password, which is shown and copied to
 * the clipboard. The token works once, so the button stays done afterwards.
 */
export default function ResetConfirmPage() {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const copy = useCopyText();
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');

  const confirm = async () => {
    setBusy(true);
    try {
      const res = await api.post<string>('/api/user/reset', { email, token });
      if (res.success && res.data) {
        setPassword(res.data);
        await copy(res.data, t('新密码已复制到剪贴板：{password}', { password: res.data }));
      }
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('密码重置确认')}>
      {!email || !token ? (
        <Alert type="error" showIcon title={t('重置链接非法或已过期')} />
      ) : (
        <Form layout="vertical" size="large">
          <Form.Item label={t('邮箱')}>
            <Input value={email} readOnly aria-label={t('邮箱')} />
          </Form.Item>
          {password && (
            <Form.Item label={t('新密码')}>
              <Input value={password} readOnly aria-label={t('新密码')} />
            </Form.Item>
          )}
          <Button type="primary" block loading={busy} disabled={!!password} onClick={() => void confirm()}>
            {password ? t('密码重置完成') : t('提交')}
          </Button>
        </Form>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        <Link to="/login">{t('返回登录')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
