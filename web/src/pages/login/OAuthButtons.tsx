import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Divider, Flex } from 'antd';
import { GithubOutlined, WechatOutlined } from '@ant-design/icons';
import { useStatus } from '../../app/status';
import { useAuth } from '../../app/auth';
import { getStoredUser, STORAGE_KEYS } from '../../lib/storage';
import { openGitHubAuthorize } from './github';
import { WeChatLoginModal } from './WeChatLoginModal';
import { TelegramLogin } from './TelegramLogin';
import { t } from '../../lib/i18n';

/** Third-party sign-in, each shown only when the server has it switched on. */
export function OAuthButtons() {
  const { status } = useStatus();
  const [wechatOpen, setWechatOpen] = useState(false);
  const { setUser } = useAuth();
  const navigate = useNavigate();
  const github = status.github_oauth === true;
  // A GitHub sign-in finishes in the window it opened; this one follows it once the user is stored there.
  useEffect(() => {
    if (!github) return;
    const follow = (e: StorageEvent) => {
      const user = e.key === STORAGE_KEYS.user && e.newValue ? getStoredUser() : null;
      if (!user) return;
      setUser(user);
      void navigate('/token');
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, [github, setUser, navigate]);
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
