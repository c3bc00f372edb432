import { useEffect, useState } from 'react';
import { Button, Flex, Input, Modal, Result, Typography } from 'antd';
import { useStatus } from '../app/status';
import { useExpiry } from './useExpiry';
import { t } from '../lib/i18n';
import { imageUrl } from '../lib/safeUrl';

/** The code the official account replies with is good for three minutes (spec §9). */
export const WECHAT_CODE_SECONDS = 180;

/**
 * Scan the official account's QR code, send the keyword, type the code it replies with. The dialog counts the three
 * minutes down and, once they are over, shows the code as expired until the visitor starts again.
 * `onSubmit` resolves true when the code was taken (the dialog then closes).
 */
export function WeChatCodeModal({
  open,
  title,
  submitText,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  submitText: string;
  onSubmit(code: string): Promise<boolean>;
  onClose(): void;
}) {
  const { status } = useStatus();
  const { remaining, expired, start, stop } = useExpiry(WECHAT_CODE_SECONDS);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) start();
    else stop();
  }, [open, start, stop]);
  const restart = () => {
    setCode('');
    start();
  };
  const submit = async () => {
    if (!code.trim()) return;
    setBusy(true);
    try {
      if (await onSubmit(code.trim())) onClose();
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  const qrCode = imageUrl(status.wechat_qrcode, '');
  const minutes = Math.floor(remaining / 60);
  const seconds = String(remaining % 60).padStart(2, '0');
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      {!expired ? (
        <Flex vertical align="center" gap={12}>
          {qrCode && <img src={qrCode} alt={t('微信二维码')} width={200} height={200} />}
          <Typography.Text type="secondary">
            {t('微信扫码关注公众号，输入「验证码」获取验证码（三分钟内有效）')}
          </Typography.Text>
          <Typography.Text type="secondary">{t('剩余有效时间：{m}:{s}', { m: minutes, s: seconds })}</Typography.Text>
          <Input
            aria-label={t('验证码')}
            placeholder={t('验证码')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onPressEnter={() => void submit()}
          />
          <Button type="primary" block loading={busy} onClick={() => void submit()}>
            {submitText}
          </Button>
        </Flex>
      ) : (
        <Result
          status="warning"
          title={t('验证码已过期')}
          subTitle={t('验证码三分钟内有效，请重新获取')}
          extra={
            <Button type="primary" onClick={restart}>
              {t('重新获取')}
            </Button>
          }
        />
      )}
    </Modal>
  );
}
