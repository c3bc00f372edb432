import { useState } from 'react';
import { Alert, Input, Modal } from 'antd';
import { useNavigate } from 'react-router';
import { userApi } from '../../../api/user';
import { useAuth } from '../../../app/auth';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';

interface DeleteAccountModalProps {
  open: boolean;
  username: string;
  onClose(): void;
}

export function DeleteAccountModal({ open, username, onClose }: DeleteAccountModalProps) {
  const { user, clearUser } = useAuth();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const expected = username || user?.username || '';

  const close = () => {
    setTyped('');
    onClose();
  };

  const confirm = async () => {
    if (typed.trim() === '' || typed.trim() !== expected) {
      notify.error(t('请输入你的账户名以确认删除！'));
      return;
    }
    setSubmitting(true);
    try {
      await userApi.deleteSelf();
      notify.success(t('账户已删除！'));
      clearUser();
      navigate('/login');
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('删除个人账户')}
      okText={t('确定')}
      cancelText={t('取消')}
      okButtonProps={{ danger: true }}
      confirmLoading={submitting}
      onOk={() => void confirm()}
      onCancel={close}
    >
      <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('您正在删除自己的帐户，将清空所有数据且不可恢复')} />
      <Input
        aria-label={t('账户名')}
        placeholder={t('输入你的账户名 {username} 以确认删除', { username: expected })}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
    </Modal>
  );
}
