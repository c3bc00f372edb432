import { useState, type ReactNode } from 'react';
import { Button, Flex, Typography } from 'antd';
import { GithubOutlined, SendOutlined, WechatOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { userApi } from '../../../api/user';
import { useStatus } from '../../../app/status';
import { TelegramWidget, telegramQuery } from '../../../components/TelegramWidget';
import { WeChatCodeModal } from '../../../components/WeChatCodeModal';
import { notify } from '../../../lib/notify';
import { t } from '../../../lib/i18n';
import { openGitHubAuthorize } from '../../login/github';

function Row({ icon, label, value, children }: { icon: ReactNode; label: string; value: string; children?: ReactNode }) {
  return (
    <Flex align="center" justify="space-between" gap={12} wrap role="group" aria-label={label}>
      <Flex align="center" gap={8}>
        {icon}
        <Typography.Text strong>{label}</Typography.Text>
        <Typography.Text type="secondary">{value || t('未绑定')}</Typography.Text>
      </Flex>
      {children}
    </Flex>
  );
}

/** The account's GitHub, WeChat and Telegram bindings; a method can be bound while the administrator has it on. */
export function BindingsSection() {
  const { status } = useStatus();
  const queryClient = useQueryClient();
  const self = useQuery({ queryKey: ['user-self'], queryFn: userApi.self });
  const [wechatOpen, setWechatOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['user-self'] });
  const user = self.data;
  const wechatBound = Boolean(user?.wechat_id);

  const bindWeChat = async (code: string) => {
    const res = await api.get('/api/oauth/wechat/bind', { code });
    if (!res.success) return false;
    notify.success(t('微信账户绑定成功！'));
    void refresh();
    return true;
  };

  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">{t('账户绑定')}</Typography.Text>
      <Row icon={<GithubOutlined />} label={t('GitHub')} value={user?.github_id ?? ''}>
        <Button
          disabled={!status.github_oauth || Boolean(user?.github_id)}
          onClick={() => void openGitHubAuthorize(status).catch(() => undefined)}
        >
          {user?.github_id ? t('已绑定') : t('绑定 GitHub 账户')}
        </Button>
      </Row>
      <Row icon={<WechatOutlined />} label={t('微信')} value={wechatBound ? t('已绑定') : ''}>
        <Button disabled={!status.wechat_login || wechatBound} onClick={() => setWechatOpen(true)}>
          {wechatBound ? t('已绑定') : t('绑定微信账户')}
        </Button>
      </Row>
      <Row icon={<SendOutlined />} label={t('Telegram')} value={user?.telegram_id ?? ''}>
        {user?.telegram_id ? (
          <Button disabled>{t('已绑定')}</Button>
        ) : status.telegram_oauth && status.telegram_bot_name ? (
          <TelegramWidget
            botName={status.telegram_bot_name}
            onAuth={(data) => {
              api
                .get('/api/oauth/telegram/bind', telegramQuery(data))
                .then((res) => {
                  if (!res.success) return;
                  notify.success(t('Telegram 账户绑定成功！'));
                  void refresh();
                })
                .catch(() => undefined);
            }}
          />
        ) : (
          <Button disabled>{t('绑定 Telegram 账户')}</Button>
        )}
      </Row>
      <WeChatCodeModal
        open={wechatOpen}
        title={t('绑定微信账户')}
        submitText={t('绑定')}
        onClose={() => setWechatOpen(false)}
        onSubmit={bindWeChat}
      />
    </Flex>
  );
}
