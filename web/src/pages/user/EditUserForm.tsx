import { useEffect, useState } from 'react';
import { Button, Form, Input, InputNumber, Select, Space, Spin } from 'antd';
import { formatQuota } from '@switchyard/shared';
import { userApi } from '../../api/user';
import { useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { AddQuotaModal } from './AddQuotaModal';
import { useUser } from './useUsers';
import { useGroupNames } from '../../components/GroupSelect';

interface EditUserValues {
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number;
}

interface EditUserFormProps {
  id: number;
  onSaved(): void;
  onCancel(): void;
}

/** Admin edit of one user (drawer on the user page, and the /user/edit/:id page). */
export function EditUserForm({ id, onSaved, onCancel }: EditUserFormProps) {
  const display = useQuotaDisplay();
  const [form] = Form.useForm<EditUserValues>();
  const user = useUser(id);
  const groups = useGroupNames();
  const [addingQuota, setAddingQuota] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const quota = Form.useWatch('quota', form) ?? 0;

  useEffect(() => {
    if (!user.data) return;
    const u = user.data;
    form.setFieldsValue({
      username: u.username,
      display_name: u.display_name,
      password: '',
      group: u.group,
      quota: u.quota,
    });
  }, [user.data, form]);

  const submit = async (values: EditUserValues) => {
    if (!user.data) return;
    setSubmitting(true);
    try {
      const { password, ...rest } = values;
      await userApi.update({
        ...user.data,
        ...rest,
        ...(password ? { password } : {}),
        id,
        quota: Math.trunc(Number(values.quota) || 0),
      });
      notify.success(t('用户信息更新成功！'));
      onSaved();
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  if (user.isLoading) return <Spin />;
  if (!user.data) return null;

  const groupOptions = Array.from(new Set([...(groups.data ?? []), user.data.group].filter((g) => g !== '')));

  return (
    <>
      <Form<EditUserValues> form={form} name="user-edit" layout="vertical" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="username"
          label={t('用户名')}
          rules={[{ required: true, whitespace: true, message: t('请输入用户名') }]}
        >
          <Input placeholder={t('请输入新的用户名')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="display_name" label={t('显示名称')}>
          <Input placeholder={t('请输入新的显示名称')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('密码')}>
          <Input.Password placeholder={t('请输入新的密码，最短 8 位')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="group" label={t('分组')}>
          <Select
            showSearch
            loading={groups.isLoading}
            placeholder={t('请选择分组')}
            options={groupOptions.map((g) => ({ label: g, value: g }))}
          />
        </Form.Item>
        <Form.Item label={t('剩余额度')} extra={formatQuota(Number(quota) || 0, display)}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="quota" noStyle>
              <InputNumber precision={0} aria-label={t('剩余额度')} style={{ width: '100%' }} />
            </Form.Item>
            <Button onClick={() => setAddingQuota(true)}>{t('添加额度')}</Button>
          </Space.Compact>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {t('提交')}
          </Button>
          <Button onClick={onCancel}>{t('取消')}</Button>
        </Space>
      </Form>
      <AddQuotaModal
        open={addingQuota}
        current={Number(quota) || 0}
        onClose={() => setAddingQuota(false)}
        onAdd={(amount) => form.setFieldValue('quota', (Number(form.getFieldValue('quota')) || 0) + amount)}
      />
    </>
  );
}
