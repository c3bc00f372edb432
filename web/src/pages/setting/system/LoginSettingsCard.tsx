import { useState } from 'react';
import { App, Card, Col, Row, Space, Switch, Typography } from 'antd';
import { t } from '../../../lib/i18n';
import { useOptionSettings } from '../operation/useOptionSettings';

const SWITCHES = [
  { key: 'PasswordLoginEnabled', label: '允许通过密码进行登录' },
  { key: 'PasswordRegisterEnabled', label: '允许通过密码进行注册' },
  { key: 'EmailVerificationEnabled', label: '通过密码注册时需要进行邮箱验证' },
  { key: 'GitHubOAuthEnabled', label: '允许通过 GitHub 账户登录 & 注册' },
  { key: 'WeChatAuthEnabled', label: '允许通过微信登录 & 注册' },
  { key: 'TelegramOAuthEnabled', label: '允许通过 Telegram 进行登录' },
  { key: 'RegisterEnabled', label: '允许新用户注册（此项为否时，新用户将无法以任何方式进行注册）' },
  { key: 'TurnstileCheckEnabled', label: '启用 Turnstile 用户校验' },
] as const;

/**
 * The system tab's sign-in and registration switches. Each switch is saved as soon as it is flipped; the server
 * refuses turning a method on before its credentials are saved (its reason is shown and the switch stays off).
 * Turning password login off asks first, as it can lock out an operator with no other way in.
 */
export function LoginSettingsCard() {
  const { options, save } = useOptionSettings();
  const { modal } = App.useApp();
  const [pending, setPending] = useState<string | null>(null);

  const write = async (key: string, on: boolean) => {
    setPending(key);
    try {
      await save({ [key]: String(on) });
    } finally {
      setPending(null);
    }
  };

  const toggle = (key: string, on: boolean) => {
    if (key === 'PasswordLoginEnabled' && !on) {
      modal.confirm({
        title: t('确定要取消密码登录功能吗？'),
        content: t('如果你没有配置并启用其他登录方式，关闭后将无法登录系统。'),
        okText: t('确定'),
        cancelText: t('取消'),
        okButtonProps: { danger: true },
        onOk: () => write(key, on),
      });
      return;
    }
    void write(key, on);
  };

  return (
    <Card title={t('配置登录注册')} style={{ marginBottom: 16 }}>
      <Row gutter={[16, 12]}>
        {SWITCHES.map((s) => (
          <Col key={s.key} xs={24} md={12}>
            <Space align="start">
              <Switch
                aria-label={t(s.label)}
                checked={options?.[s.key] === 'true'}
                loading={pending === s.key}
                disabled={!options || (pending !== null && pending !== s.key)}
                onChange={(on) => toggle(s.key, on)}
              />
              <Typography.Text>{t(s.label)}</Typography.Text>
            </Space>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
