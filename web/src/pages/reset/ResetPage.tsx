import { useState } from 'react';
import { Button, Form, Input, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { AuthCard } from '../../components/AuthCard';
import { useCountdown } from '../../components/useCountdown';
import { TURNSTILE_WAIT, useTurnstile } from '../../components/useTurnstile';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';

const RESEND_SECONDS = 30;

/** /reset: an email address gets a password-reset link; 30 s before another can be sent. */
export default function ResetPage() {
  const turnstile = useTurnstile();
  const { remaining, running, start } = useCountdown(RESEND_SECONDS);
  const [busy, setBusy] = useState(false);

  const submit = async ({ email }: { email: string }) => {
    if (!turnstile.ready) {
      notify.info(t(TURNSTILE_WAIT));
      return;
    }
    setBusy(true);
    try {
      const res = await api.get('/api/reset_password', { email: email.trim(), turnstile: turnstile.token });
      if (res.success) {
        notify.success(t('重置邮件发送成功，请检查邮箱！'));
        start();
      }
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('密码重置')}>
      <Form<{ email: string }> layout="vertical" size="large" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item name="email" label={t('邮箱')} rules={[{ required: true, whitespace: true, message: t('请输入邮箱！') }]}>
          <Input type="email" prefix={<MailOutlined />} placeholder={t('邮箱地址')} autoComplete="email" />
        </Form.Item>
        {turnstile.widget}
        <Button type="primary" htmlType="submit" block loading={busy} disabled={running || !turnstile.ready}>
          {running ? t('重试 ({s})', { s: remaining }) : t('提交')}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        {t('想起密码了？')}
        <Link to="/login">{t('点击登录')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
