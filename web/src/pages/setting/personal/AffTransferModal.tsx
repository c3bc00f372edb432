import { useEffect, useState } from 'react';
import { Form, InputNumber, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { formatQuota } from '@switchyard/shared';
import { userApi } from '../../../api/user';
import { useQuotaDisplay } from '../../../app/status';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';

interface Props {
  open: boolean;
  /** The invite earnings that can be moved (aff_quota). */
  available: number;
  onClose(): void;
}

/** Moves invite earnings to the balance: an amount in quota units, at least one unit (QuotaPerUnit). */
export function AffTransferModal({ open, available, onClose }: Props) {
  const display = useQuotaDisplay();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState<number | null>(available);
  const [busy, setBusy] = useState(false);
  const minimum = display.quotaPerUnit;

  useEffect(() => {
    if (open) setAmount(available);
  }, [open, available]);

  const submit = async () => {
    const quota = Math.trunc(amount ?? 0);
    if (quota < minimum) {
      notify.error(`${t('划转金额最低为')} ${formatQuota(minimum, display)}`);
      return;
    }
    setBusy(true);
    try {
      const message = await userApi.affTransfer(quota);
      notify.success(message || t('划转成功'));
      await queryClient.invalidateQueries({ queryKey: ['user-self'] });
      onClose();
    } catch {
      // Already shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('划转邀请额度')}
      okText={t('划转')}
      cancelText={t('取消')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" style={{ marginTop: 16 }} onFinish={() => void submit()}>
        <Form.Item label={t('可用额度')}>
          <Typography.Text strong>{formatQuota(available, display)}</Typography.Text>
        </Form.Item>
        <Form.Item
          label={t('划转额度')}
          htmlFor="aff-transfer-amount"
          extra={t('{amount}，最低 {minimum}', { amount: formatQuota(amount ?? 0, display), minimum: formatQuota(minimum, display) })}
        >
          <InputNumber<number>
            id="aff-transfer-amount"
            min={0}
            precision={0}
            step={minimum}
            value={amount}
            onChange={setAmount}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
