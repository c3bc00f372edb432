import { useState } from 'react';
import { Button, Drawer, Form, Input, Space } from 'antd';
import { userApi, type NewUserInput } from '../../api/user';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';

interface AddUserDrawerProps {
  open: boolean;
  onClose(): void;
  onCreated(): void;
}

export function AddUserDrawer({ open, onClose, onCreated }: AddUserDrawerProps) {
  const [form] = Form.useForm<NewUserInput>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (values: NewUserInput) => {
    setSubmitting(true);
    try {
      await userApi.create({
        username: values.username.trim(),
        display_name: (values.display_name ?? '').trim(),
        password: values.password,
      });
      notify.success(t('用户账户创建成功！'));
      form.resetFields();
      onCreated();
      onClose();
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Drawer open={open} title={t('添加用户')} size={480} destroyOnHidden onClose={onClose}>
      <Form<NewUserInput> form={form} name="user-add" layout="vertical" preserve={false} onFinish={(v) => void submit(v)}>
        <Form.Item
          name="username"
          label={t('用户名')}
          rules={[{ required: true, whitespace: true, message: t('请输入用户名') }]}
        >
          <Input placeholder={t('请输入用户名')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="display_name" label={t('显示名称')}>
          <Input placeholder={t('请输入显示名称')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('密码')} rules={[{ required: true, message: t('请输入密码') }]}>
          <Input.Password placeholder={t('请输入密码，最短 8 位')} autoComplete="new-password" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {t('提交')}
          </Button>
          <Button onClick={onClose}>{t('取消')}</Button>
        </Space>
      </Form>
    </Drawer>
  );
}
