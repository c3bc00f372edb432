import { useState } from 'react';
import { Button, Card, Form, Input } from 'antd';
import { t } from '../../../lib/i18n';
import { notifyFirstError, useFormSync, useOptionSettings } from '../operation/useOptionSettings';

interface Values {
  ServerAddress: string;
}

const fromOptions = (o: Record<string, string>): Values => ({ ServerAddress: o.ServerAddress ?? '' });

/** The general card of the system tab: the public address of this server (callbacks, reset and image links). */
export function GeneralSystemCard() {
  const { options, save } = useOptionSettings();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const { markSaved } = useFormSync(form, options, fromOptions);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const ServerAddress = trimAddress(values.ServerAddress);
      if (await save({ ServerAddress })) markSaved({ ServerAddress });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('通用设置')} style={{ marginBottom: 16 }}>
      <Form form={form} layout="vertical" name="general-system-settings" onFinish={(v) => void submit(v)} onFinishFailed={notifyFirstError}>
        <Form.Item
          name="ServerAddress"
          label={t('服务器地址')}
          extra={t('用于支付回调、重置密码邮件和绘图图片链接')}
          rules={[{ type: 'url', message: t('请输入合法的服务器地址') }]}
        >
          <Input placeholder={t('例如：https://yourdomain.com')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
          {t('更新服务器地址')}
        </Button>
      </Form>
    </Card>
  );
}

/** An address as stored: trimmed, without a trailing slash. */
export function trimAddress(value: string | undefined): string {
  return (value ?? '').trim().replace(/\/+$/, '');
}
