import { useState } from 'react';
import { Button, Form, Input, Space, type FormInstance } from 'antd';
import { api } from '../api/client';
import { useCountdown } from './useCountdown';
import type { TurnstileState } from './useTurnstile';
import { notify } from '../lib/notify';
import { t } from '../lib/i18n';

const RESEND_SECONDS = 30;

/**
 * Email plus a get-code button (30 s before it can resend) and the code field, as registration and email binding
 * use them. The form's fields are `email` and `verification_code`.
 */
export function EmailCodeFields({ form, turnstile }: { form: FormInstance; turnstile: Pick<TurnstileState, 'token' | 'ready'> }) {
  const { remaining, running, start } = useCountdown(RESEND_SECONDS);
  const [sending, setSending] = useState(false);
  const sendCode = async () => {
    const email = String(form.getFieldValue('email') ?? '').trim();
    if (!email) {
      notify.warning(t('请输入邮箱！'));
      return;
    }
    setSending(true);
    try {
      const res = await api.get('/api/verification', { email, turnstile: turnstile.token });
      if (res.success) {
        notify.success(t('验证码发送成功，请检查你的邮箱！'));
        start();
      }
    } catch {
      // Already shown by the API client.
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      <Form.Item label={t('邮箱')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="email" noStyle rules={[{ required: true, message: t('请输入邮箱！') }]}>
            <Input type="email" placeholder={t('输入邮箱地址')} autoComplete="email" aria-label={t('邮箱')} />
          </Form.Item>
          <Button disabled={running || !turnstile.ready} loading={sending} onClick={() => void sendCode()}>
            {running ? t('重新发送 ({s})', { s: remaining }) : t('获取验证码')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item
        name="verification_code"
        label={t('验证码')}
        rules={[{ required: true, message: t('请输入邮箱验证码！') }]}
      >
        <Input placeholder={t('输入验证码')} autoComplete="one-time-code" />
      </Form.Item>
    </>
  );
}
