import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { userApi } from '../../../api/user';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';

interface PasswordValues {
  original_password: string;
  password: string;
  password2: string;
}

export function PasswordModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const [form] = Form.useForm<PasswordValues>();
  const [submitting, setSubmitting] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async (values: PasswordValues) => {
    if (values.password !== values.password2) {
      notify.error(t('两次输入的密码不一致！'));
      return;
    }
    setSubmitting(true);
    try {
      await userApi.updateSelf({ original_password: values.original_password, password: values.password });
      notify.success(t('密码修改成功！'));
      close();
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('修改密码')}
      okText={t('确定')}
      cancelText={t('取消')}
      confirmLoading={submitting}
      onOk={() => form.submit()}
      onCancel={close}
      forceRender
    >
      <Form<PasswordValues> form={form} name="password-change" layout="vertical" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="original_password"
          label={t('原密码')}
          rules={[{ required: true, message: t('请输入原密码') }]}
        >
          <Input.Password placeholder={t('请输入原密码')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="password" label={t('新密码')} rules={[{ required: true, message: t('请输入新密码') }]}>
          <Input.Password placeholder={t('请输入新密码，最短 8 位')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="password2" label={t('确认新密码')} rules={[{ required: true, message: t('请再次输入新密码') }]}>
          <Input.Password placeholder={t('请再次输入新密码')} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
