import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { useStatus } from '../../app/status';
import { EmailCodeFields } from '../../components/EmailCodeFields';
import { TURNSTILE_WAIT, useTurnstile } from '../../components/useTurnstile';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';
import { storedAffCode } from './affCode';

interface Fields {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
}

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 20;

export function RegisterForm() {
  const { status } = useStatus();
  const navigate = useNavigate();
  const [form] = Form.useForm<Fields>();
  const [busy, setBusy] = useState(false);
  const turnstile = useTurnstile();

  const submit = async (v: Fields) => {
    if (!turnstile.ready) {
      notify.info(t(TURNSTILE_WAIT));
      return;
    }
    setBusy(true);
    try {
      const body = {
        username: v.username.trim(),
        password: v.password,
        password2: v.password2,
        email: v.email?.trim() ?? '',
        verification_code: v.verification_code?.trim() ?? '',
        aff_code: storedAffCode(),
      };
      const res = await api.post('/api/user/register', body, { query: { turnstile: turnstile.token } });
      if (res.success) {
        notify.success(t('注册成功！'));
        void navigate('/login');
      }
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<Fields> form={form} layout="vertical" size="large" onFinish={(v) => void submit(v)} requiredMark={false}>
      <Form.Item name="username" label={t('用户名')} rules={[{ required: true, whitespace: true, message: t('请输入用户名！') }]}>
        <Input placeholder={t('输入用户名')} autoComplete="username" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('密码')}
        rules={[
          { required: true, message: t('请输入密码！') },
          { min: MIN_PASSWORD, message: t('密码长度不得小于 8 位！') },
        ]}
      >
        <Input.Password
          placeholder={t('输入密码，最短 8 位，最长 20 位')}
          maxLength={MAX_PASSWORD}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        name="password2"
        label={t('确认密码')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('请再次输入密码！') },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || getFieldValue('password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('两次输入的密码不一致'))),
          }),
        ]}
      >
        <Input.Password placeholder={t('再次输入密码')} maxLength={MAX_PASSWORD} autoComplete="new-password" />
      </Form.Item>
      {status.email_verification && <EmailCodeFields form={form} turnstile={turnstile} />}
      {turnstile.widget}
      <Button type="primary" htmlType="submit" block loading={busy} disabled={!turnstile.ready}>
        {t('注册')}
      </Button>
    </Form>
  );
}
