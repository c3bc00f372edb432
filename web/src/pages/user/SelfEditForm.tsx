import { useState } from 'react';
import { Button, Form, Input, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { userApi, type SelfUpdateInput } from '../../api/user';
import { useAuth } from '../../app/auth';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';

interface SelfValues {
  username: string;
  display_name: string;
  password: string;
  original_password: string;
}

/** /user/edit with no id: the signed-in user's own display name and password (PUT /api/user/self). */
export function SelfEditForm({ onCancel }: { onCancel(): void }) {
  const { user, setUser } = useAuth();
  const self = useQuery({ queryKey: ['user-self'], queryFn: userApi.self, gcTime: 0 });
  const [submitting, setSubmitting] = useState(false);

  const submit = async (values: SelfValues) => {
    const body: SelfUpdateInput = { display_name: (values.display_name ?? '').trim() };
    if (values.password) {
      body.password = values.password;
      if (values.original_password) body.original_password = values.original_password;
    }
    setSubmitting(true);
    try {
      await userApi.updateSelf(body);
      if (user) setUser({ ...user, display_name: body.display_name ?? user.display_name });
      notify.success(t('用户信息更新成功！'));
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  if (self.isLoading) return <Spin />;
  if (!self.data) return null;

  return (
    <Form<SelfValues>
      name="user-self"
      layout="vertical"
      initialValues={{ username: self.data.username, display_name: self.data.display_name, password: '', original_password: '' }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item name="username" label={t('用户名')}>
        <Input disabled />
      </Form.Item>
      <Form.Item name="display_name" label={t('显示名称')}>
        <Input placeholder={t('请输入新的显示名称')} autoComplete="off" />
      </Form.Item>
      <Form.Item name="password" label={t('密码')}>
        <Input.Password placeholder={t('请输入新的密码，最短 8 位')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="original_password" label={t('原密码')} extra={t('修改密码时需要填写')}>
        <Input.Password placeholder={t('请输入原密码')} autoComplete="current-password" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('提交')}
        </Button>
        <Button onClick={onCancel}>{t('取消')}</Button>
      </Space>
    </Form>
  );
}
