import { useState } from 'react';
import { Button, Divider, Flex } from 'antd';
import { GithubOutlined, WechatOutlined } from '@ant-design/icons';
import { useStatus } from '../../app/status';
import { openGitHubAuthorize } from './github';
import { WeChatLoginModal } from './WeChatLoginModal';
import { TelegramLogin } from './TelegramLogin';
import { t } from '../../lib/i18n';

/** Third-party sign-in, each shown only when the server has it switched on. */
export function OAuthButtons() {
  const { status } = useStatus();
  const [wechatOpen, setWechatOpen] = useState(false);
  const github = status.github_oauth === true;
  const wechat = status.wechat_login === true;
  const telegram = status.telegram_oauth === true && Boolean(status.telegram_bot_name);
  if (!github && !wechat && !telegram) return null;
  return (
    <>
      <Divider plain>{t('第三方登录')}</Divider>
      <Flex vertical gap={8}>
        {github && (
          <Button
            block
            icon={<GithubOutlined />}
            onClick={() => void openGitHubAuthorize(status).catch(() => undefined)}
          >
            {t('使用 GitHub 登录')}
          </Button>
        )}
        {wechat && (
          <Button block icon={<WechatOutlined />} onClick={() => setWechatOpen(true)}>
            {t('使用 微信 登录')}
          </Button>
        )}
        {telegram && <TelegramLogin botName={status.telegram_bot_name ?? ''} />}
      </Flex>
      {wechat && <WeChatLoginModal open={wechatOpen} onClose={() => setWechatOpen(false)} />}
    </>
  );
}
