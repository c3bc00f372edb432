import { useState } from 'react';
import { Button, Card, Descriptions, Input, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatQuota, type UserDto } from '@switchyard/shared';
import { userApi } from '../../../api/user';
import { useQuotaDisplay } from '../../../app/status';
import { t } from '../../../lib/i18n';
import { useCopyText } from '../../../components/useCopyText';
import { AffTransferModal } from './AffTransferModal';

/** Invite statistics and the invite link (origin + /register?aff=code). */
export function InviteCard({ self }: { self: UserDto | undefined }) {
  const display = useQuotaDisplay();
  const copy = useCopyText();
  const aff = useQuery({ queryKey: ['user-aff'], queryFn: userApi.affCode });
  const link = aff.data ? `${window.location.origin}/register?aff=${aff.data}` : '';
  const [transferring, setTransferring] = useState(false);

  return (
    <Card title={t('邀请信息')} extra={<Button onClick={() => setTransferring(true)}>{t('划转到余额')}</Button>}>
      <Descriptions
        column={{ xs: 1, sm: 3 }}
        items={[
          { key: 'count', label: t('邀请人数'), children: self?.aff_count ?? 0 },
          { key: 'quota', label: t('待使用收益'), children: formatQuota(self?.aff_quota ?? 0, display) },
          { key: 'history', label: t('总收益'), children: formatQuota(self?.aff_history_quota ?? 0, display) },
        ]}
      />
      <Space.Compact style={{ width: '100%', maxWidth: 640, marginTop: 16 }}>
        <Space.Addon>{t('邀请链接')}</Space.Addon>
        <Input readOnly value={link} aria-label={t('邀请链接')} />
        <Button type="primary" disabled={!link} onClick={() => void copy(link)}>
          {t('复制')}
        </Button>
      </Space.Compact>
      <AffTransferModal open={transferring} available={self?.aff_quota ?? 0} onClose={() => setTransferring(false)} />
    </Card>
  );
}
