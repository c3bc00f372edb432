import { useState } from 'react';
import { Button, Form, Input, Modal, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { userApi } from '../../../api/user';
import { EmailCodeFields } from '../../../components/EmailCodeFields';
import { useTurnstile } from '../../../components/useTurnstile';
import { notify } from '../../../lib/notify';
import { t } from '../../../lib/i18n';

interface BindValues {
  email: string;
  verification_code: string;
}

/** The bound email (or none) and the button that binds or changes it with a mailed code. */
export function EmailBind() {
  const self = useQuery({ queryKey: ['user-self'], queryFn: userApi.self });
  const [open, setOpen] = useState(false);
  const email = self.data?.email ?? '';
  return (
    <>
      <Space.Compact style={{ width: '100%', maxWidth: 640 }}>
        <Space.Addon>{t('邮箱')}</Space.Addon>
        <Input readOnly value={email || t('未绑定')} aria-label={t('绑定的邮箱')} />
        <Button onClick={() => setOpen(true)}>{email ? t('修改绑定') : t('绑定邮箱')}</Button>
      </Space.Compact>
      {open && <EmailBindModal onClose={() => setOpen(false)} />}
    </>
  );
}

function EmailBindModal({ onClose }: { onClose(): void }) {
  const [form] = Form.useForm<BindValues>();
  const turnstile = useTurnstile();
  const queryClient = useQueryClient();
  const [binding, setBinding] = useState(false);

  const bind = async ({ email, verification_code }: BindValues) => {
    setBinding(true);
    try {
      await unwrap(api.get('/api/oauth/email/bind', { email: email.trim(), code: verification_code.trim() }));
      notify.success(t('邮箱账户绑定成功！'));
      await queryClient.invalidateQueries({ queryKey: ['user-self'] });
      onClose();
    } catch {
      // The API client has shown the failure.
    } finally {
      setBinding(false);
    }
  };

  return (
    <Modal
      open
      title={t('绑定邮箱地址')}
      okText={t('绑定')}
      cancelText={t('取消')}
      confirmLoading={binding}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<BindValues> form={form} name="email-bind" layout="vertical" onFinish={(v) => void bind(v)}>
        <EmailCodeFields form={form} turnstile={turnstile} />
        {turnstile.widget}
      </Form>
    </Modal>
  );
}
