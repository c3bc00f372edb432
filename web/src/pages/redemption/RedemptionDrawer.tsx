import { useEffect, useState } from 'react';
import { Button, Drawer, Form, Input, InputNumber, Space, Spin } from 'antd';
import { DEFAULT_NEW_REDEMPTION, formatQuota, REDEMPTION_MAX_COUNT, REDEMPTION_NAME_MAX_LENGTH } from '@switchyard/shared';
import { redemptionApi } from '../../api/redemption';
import { useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { useRedemption } from './useRedemptions';

interface FormValues {
  name: string;
  quota: number | null;
  count: number | null;
}

interface RedemptionDrawerProps {
  open: boolean;
  /** null creates new codes. */
  editingId: number | null;
  onClose(): void;
  /** After an edit was saved. */
  onSaved(): void;
  /** After codes were created: their keys and the name they were made under. */
  onCreated(keys: string[], name: string): void;
}

export function RedemptionDrawer({ open, editingId, onClose, onSaved, onCreated }: RedemptionDrawerProps) {
  return (
    <Drawer
      open={open}
      title={editingId !== null ? t('更新兑换码信息') : t('创建新的兑换码')}
      size={520}
      destroyOnHidden
      onClose={onClose}
    >
      {open && <RedemptionForm editingId={editingId} onClose={onClose} onSaved={onSaved} onCreated={onCreated} />}
    </Drawer>
  );
}

/** Whole numbers only: the server takes quota and count as integers (spec §5). */
const toInt = (v: number | null | undefined, fallback: number) => {
  const n = Math.trunc(Number(v));
  return Number.isFinite(n) ? n : fallback;
};

function RedemptionForm({ editingId, onClose, onSaved, onCreated }: Omit<RedemptionDrawerProps, 'open'>) {
  const isEdit = editingId !== null;
  const display = useQuotaDisplay();
  const [form] = Form.useForm<FormValues>();
  const [submitting, setSubmitting] = useState(false);
  const code = useRedemption(editingId);
  const quota = Form.useWatch('quota', form);

  useEffect(() => {
    if (code.data) form.setFieldsValue({ name: code.data.name, quota: code.data.quota });
  }, [code.data, form]);

  const submit = async (values: FormValues) => {
    const name = (values.name ?? '').trim();
    // Creating needs a name; without one, submit does nothing (spec §5).
    if (!isEdit && name === '') return;
    const quotaValue = toInt(values.quota, DEFAULT_NEW_REDEMPTION.quota);
    setSubmitting(true);
    try {
      if (isEdit) {
        if (!code.data) return;
        await redemptionApi.update({ ...code.data, name, quota: quotaValue });
        notify.success(t('兑换码更新成功！'));
        onSaved();
        onClose();
      } else {
        const keys = await redemptionApi.create({ name, quota: quotaValue, count: toInt(values.count, DEFAULT_NEW_REDEMPTION.count) });
        notify.success(t('兑换码创建成功！'));
        onClose();
        onCreated(keys, name);
      }
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  if (isEdit && code.isLoading) return <Spin />;

  return (
    <Form<FormValues>
      form={form}
      name="redemption-form"
      layout="vertical"
      initialValues={{ ...DEFAULT_NEW_REDEMPTION }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item name="name" label={t('名称')}>
        <Input placeholder={t('请输入名称')} maxLength={REDEMPTION_NAME_MAX_LENGTH} showCount allowClear />
      </Form.Item>
      <Form.Item
        name="quota"
        label={t('额度')}
        extra={t('等价金额：{amount}', { amount: formatQuota(toInt(quota, 0), { ...display, displayInCurrency: true }) })}
      >
        <InputNumber min={1} precision={0} placeholder={t('请输入额度')} style={{ width: '100%' }} />
      </Form.Item>
      {!isEdit && (
        <Form.Item name="count" label={t('生成数量')}>
          <InputNumber min={1} max={REDEMPTION_MAX_COUNT} precision={0} placeholder={t('请输入生成数量')} style={{ width: '100%' }} />
        </Form.Item>
      )}
      <Space>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('提交')}
        </Button>
        <Button onClick={onClose}>{t('取消')}</Button>
      </Space>
    </Form>
  );
}
