import { useState } from 'react';
import { Form, InputNumber, Modal, Typography } from 'antd';
import { formatQuota } from '@switchyard/shared';
import { useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';

interface AddQuotaModalProps {
  open: boolean;
  current: number;
  onClose(): void;
  /** Called with the signed amount to add; the caller only changes its form (saved on submit). */
  onAdd(amount: number): void;
}

export function AddQuotaModal({ open, current, onClose, onAdd }: AddQuotaModalProps) {
  const display = useQuotaDisplay();
  const [amount, setAmount] = useState<number | null>(null);
  const close = () => {
    setAmount(null);
    onClose();
  };
  const next = current + (amount ?? 0);
  return (
    <Modal
      open={open}
      title={t('添加额度')}
      okText={t('确定')}
      cancelText={t('取消')}
      onCancel={close}
      onOk={() => {
        onAdd(Math.trunc(amount ?? 0));
        close();
      }}
    >
      <Form layout="vertical">
        <Form.Item label={t('要添加的额度（可为负数）')} htmlFor="add-quota-amount">
          <InputNumber
            id="add-quota-amount"
            value={amount}
            precision={0}
            style={{ width: '100%' }}
            placeholder={t('请输入要添加的额度，负数表示扣减')}
            onChange={(v) => setAmount(typeof v === 'number' ? v : null)}
          />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">
        {t('新额度：{quota}', { quota: `${next} (${formatQuota(next, display)})` })}
      </Typography.Text>
    </Modal>
  );
}
