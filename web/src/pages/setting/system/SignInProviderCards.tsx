import { Typography } from 'antd';
import { useStatus } from '../../../app/status';
import { t } from '../../../lib/i18n';
import { OptionFormCard } from '../form/OptionFormCard';
import type { OptionField } from '../form/optionFields';

/*
 * The credentials of the third-party sign-in methods and of the captcha. The switches that turn each method on are
 * in the sign-in card; the server refuses them until these are saved.
 */

const GITHUB: readonly OptionField[] = [
  { key: 'GitHubClientId', kind: 'text', label: 'GitHub Client ID', placeholder: '输入你注册的 GitHub OAuth APP 的 ID' },
  { key: 'GitHubClientSecret', kind: 'secret', label: 'GitHub Client Secret' },
];

const WECHAT: readonly OptionField[] = [
  { key: 'WeChatServerAddress', kind: 'text', url: true, label: 'WeChat Server 服务器地址', placeholder: '例如：https://yourdomain.com' },
  { key: 'WeChatServerToken', kind: 'secret', label: 'WeChat Server 访问凭证' },
  { key: 'WeChatAccountQRCodeImageURL', kind: 'text', url: true, label: '微信公众号二维码图片链接', placeholder: '输入一个图片链接' },
];

const TELEGRAM: readonly OptionField[] = [
  { key: 'TelegramBotName', kind: 'text', label: 'Telegram Bot 名称', placeholder: '例如：my_gateway_bot' },
  { key: 'TelegramBotToken', kind: 'secret', label: 'Telegram Bot Token' },
];

const TURNSTILE: readonly OptionField[] = [
  { key: 'TurnstileSiteKey', kind: 'secret', label: 'Turnstile Site Key', placeholder: '输入你注册的 Turnstile Site Key' },
  { key: 'TurnstileSecretKey', kind: 'secret', label: 'Turnstile Secret Key' },
];

export function GitHubOAuthCard() {
  const { status } = useStatus();
  const address = status.server_address || t('你的服务器地址');
  return (
    <OptionFormCard
      title="配置 GitHub OAuth App"
      name="github-oauth-settings"
      description={
        <>
          {t('用以支持通过 GitHub 进行登录注册。')}
          <br />
          <Typography.Text code>{t('Homepage URL 填 {url}', { url: address })}</Typography.Text>
          <br />
          <Typography.Text code>{t('Authorization callback URL 填 {url}', { url: `${address}/oauth/github` })}</Typography.Text>
        </>
      }
      fields={GITHUB}
      saveLabel="保存 GitHub OAuth 设置"
    />
  );
}

export function WeChatServerCard() {
  return (
    <OptionFormCard
      title="配置 WeChat Server"
      name="wechat-server-settings"
      description="用以支持通过微信进行登录注册"
      fields={WECHAT}
      saveLabel="保存 WeChat Server 设置"
    />
  );
}

export function TelegramBotCard() {
  return (
    <OptionFormCard
      title="配置 Telegram 登录"
      name="telegram-settings"
      description="用以支持通过 Telegram 进行登录注册"
      fields={TELEGRAM}
      saveLabel="保存 Telegram 登录设置"
    />
  );
}

export function TurnstileCard() {
  return (
    <OptionFormCard
      title="配置 Turnstile"
      name="turnstile-settings"
      description="用以支持用户校验"
      fields={TURNSTILE}
      saveLabel="保存 Turnstile 设置"
    />
  );
}
