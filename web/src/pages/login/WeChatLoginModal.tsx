import { useState } from 'react';
import { Button, Flex, Input, Modal, Typography } from 'antd';
import type { LoginUser } from '@switchyard/shared';
import { api } from '../../api/client';
import { useStatus } from '../../app/status';
import { useOAuthLoginDone } from './useOAuthLogin';
import { t } from '../../lib/i18n';

/** Scan the official account's QR code, send the keyword, type the code it replies with (valid 3 minutes). */
export function WeChatLoginModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { status } = useStatus();
  const done = useOAuthLoginDone();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!code.trim()) return;
    setBusy(true);
    try {
      const res = await api.get<LoginUser>('/api/oauth/wechat', { code: code.trim() });
      if (done(res)) onClose();
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('微信扫码登录')} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical align="center" gap={12}>
        {status.wechat_qrcode && <img src={status.wechat_qrcode} alt={t('微信二维码')} width={200} height={200} />}
        <Typography.Text type="secondary">
          {t('微信扫码关注公众号，输入「验证码」获取验证码（三分钟内有效）')}
        </Typography.Text>
        <Input
          aria-label={t('验证码')}
          placeholder={t('验证码')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void submit()}
        />
        <Button type="primary" block loading={busy} onClick={() => void submit()}>
          {t('登录')}
        </Button>
      </Flex>
    </Modal>
  );
}
