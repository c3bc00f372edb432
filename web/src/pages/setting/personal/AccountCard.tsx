import { useState } from 'react';
import { Button, Card, Input, Space } from 'antd';
import { userApi } from '../../../api/user';
import { t } from '../../../lib/i18n';
import { useCopyText } from '../../../components/useCopyText';
import { DeleteAccountModal } from './DeleteAccountModal';
import { EmailBind } from './EmailBind';
import { PasswordModal } from './PasswordModal';
import { BindingsSection } from './BindingsSection';

/** Email binding, sign-in bindings, system access token, password change and account deletion. */
export function AccountCard({ username }: { username: string | undefined }) {
  const copy = useCopyText();
  const [accessToken, setAccessToken] = useState('');
  const [generating, setGenerating] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const generate = async () => {
    setGenerating(true);
    try {
      const token = await userApi.accessToken();
      setAccessToken(token);
      await copy(token);
    } catch {
      // The API client has shown the failure.
    } finally {
      setGenerating(false);
    }
  };

  return (
    <Card title={t('账户设置')}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <EmailBind />
        <Space wrap>
          <Button loading={generating} onClick={() => void generate()}>
            {t('生成系统访问令牌')}
          </Button>
          <Button onClick={() => setChangingPassword(true)}>{t('修改密码')}</Button>
          <Button danger onClick={() => setDeleting(true)}>
            {t('删除个人账户')}
          </Button>
        </Space>
        {accessToken && (
          <Space.Compact style={{ width: '100%', maxWidth: 640 }}>
            <Space.Addon>{t('系统访问令牌')}</Space.Addon>
            <Input readOnly value={accessToken} aria-label={t('系统访问令牌')} />
            <Button onClick={() => void copy(accessToken)}>{t('复制')}</Button>
          </Space.Compact>
        )}
        <BindingsSection />
      </Space>
      <PasswordModal open={changingPassword} onClose={() => setChangingPassword(false)} />
      <DeleteAccountModal open={deleting} username={username ?? ''} onClose={() => setDeleting(false)} />
    </Card>
  );
}
