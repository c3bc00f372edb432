import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useStatus } from '../../app/status';
import { Turnstile } from '../../components/Turnstile';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';
import { useLogin } from './useLogin';

interface Fields {
  username: string;
  password: string;
}

export const TURNSTILE_WAIT = '请稍后几秒重试，Turnstile 正在检查用户环境！';

export function LoginForm() {
  const { status } = useStatus();
  const login = useLogin();
  const [busy, setBusy] = useState(false);
  const [turnstileToken, setTurnstileToken] = useState('');
  const submit = async ({ username, password }: Fields) => {
    if (!username?.trim() || !password) {
      notify.warning(t('请输入用户名和密码！'));
      return;
    }
    if (status.turnstile_check && !turnstileToken) {
      notify.info(t(TURNSTILE_WAIT));
      return;
    }
    setBusy(true);
    try {
      await login(username.trim(), password, turnstileToken);
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
      {status.turnstile_check && status.turnstile_site_key && (
        <Turnstile siteKey={status.turnstile_site_key} onToken={setTurnstileToken} />
      )}
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('登录')}
      </Button>
    </Form>
  );
}
