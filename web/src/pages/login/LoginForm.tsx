import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { TURNSTILE_WAIT, useTurnstile } from '../../components/useTurnstile';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';
import { useLogin } from './useLogin';

interface Fields {
  username: string;
  password: string;
}

export function LoginForm() {
  const login = useLogin();
  const [busy, setBusy] = useState(false);
  const turnstile = useTurnstile();
  const submit = async ({ username, password }: Fields) => {
    if (!username?.trim() || !password) {
      notify.warning(t('请输入用户名和密码！'));
      return;
    }
    if (!turnstile.ready) {
      notify.info(t(TURNSTILE_WAIT));
      return;
    }
    setBusy(true);
    try {
      await login(username.trim(), password, turnstile.token);
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form<Fields> layout="vertical" size="large" onFinish={(v) => void submit(v)} requiredMark={false}>
      <Form.Item name="username" label={t('用户名')}>
        <Input prefix={<UserOutlined />} placeholder={t('用户名或邮箱')} autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('密码')}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('密码')} autoComplete="current-password" />
      </Form.Item>
      {turnstile.widget}
      <Button type="primary" htmlType="submit" block loading={busy} disabled={!turnstile.ready}>
        {t('登录')}
      </Button>
    </Form>
  );
}
