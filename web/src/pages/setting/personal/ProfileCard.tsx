import { Button, Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatQuota, roleName, type UserDto } from '@switchyard/shared';
import { userApi } from '../../../api/user';
import { useAuth } from '../../../app/auth';
import { useQuotaDisplay } from '../../../app/status';
import { t } from '../../../lib/i18n';
import { useCopyText } from '../../../components/useCopyText';

export function ProfileCard({ self, loading }: { self: UserDto | undefined; loading: boolean }) {
  const { user } = useAuth();
  const display = useQuotaDisplay();
  const copy = useCopyText();
  const navigate = useNavigate();
  const models = useQuery({ queryKey: ['user-models'], queryFn: userApi.models });
  const role = self?.role ?? user?.role ?? 0;

  return (
    <Card
      title={t('个人信息')}
      loading={loading}
      extra={<Button onClick={() => navigate('/user/edit')}>{t('更新个人信息')}</Button>}
    >
      <Descriptions
        column={{ xs: 1, sm: 2, md: 3 }}
        items={[
          { key: 'username', label: t('用户名'), children: self?.username ?? user?.username },
          { key: 'display_name', label: t('显示名称'), children: self?.display_name || user?.display_name || '-' },
          { key: 'role', label: t('用户角色'), children: t(roleName(role)) },
          { key: 'group', label: t('分组'), children: self?.group ?? user?.group },
          { key: 'quota', label: t('当前余额'), children: formatQuota(self?.quota ?? 0, display) },
          { key: 'used', label: t('历史消耗'), children: formatQuota(self?.used_quota ?? 0, display) },
          { key: 'requests', label: t('请求次数'), children: self?.request_count ?? 0 },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 8 }}>
        {t('可用模型')}
      </Typography.Title>
      {models.data && models.data.length === 0 ? (
        <Empty description={t('暂无可用模型')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Space size={[6, 6]} wrap>
          {(models.data ?? []).map((m) => (
            <Tag
              key={m}
              color="blue"
              role="button"
              tabIndex={0}
              style={{ cursor: 'pointer' }}
              onClick={() => void copy(m)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void copy(m);
              }}
            >
              {m}
            </Tag>
          ))}
        </Space>
      )}
    </Card>
  );
}
