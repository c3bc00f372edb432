import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatQuota, roleName, ROLE, USER_STATUS, type QuotaDisplay, type UserDto } from '@switchyard/shared';
import type { ManageAction } from '../../api/user';
import { t } from '../../lib/i18n';

export interface UserRowActions {
  manage(user: UserDto, action: ManageAction): Promise<void>;
  edit(user: UserDto): void;
}

const isDeleted = (u: UserDto) => u.DeletedAt !== null && u.DeletedAt !== undefined;

function StatusTag({ user }: { user: UserDto }) {
  if (isDeleted(user)) return <Tag color="default">{t('已注销')}</Tag>;
  if (user.status === USER_STATUS.ENABLED) return <Tag color="green">{t('已激活')}</Tag>;
  if (user.status === USER_STATUS.DISABLED) return <Tag color="red">{t('已封禁')}</Tag>;
  return <Tag color="default">{t('未知状态')}</Tag>;
}

function RoleTag({ role }: { role: number }) {
  const color = role >= ROLE.ROOT ? 'orange' : role >= ROLE.ADMIN ? 'gold' : 'blue';
  return <Tag color={color}>{t(roleName(role))}</Tag>;
}

export function userColumns(display: QuotaDisplay, actions: UserRowActions): ColumnsType<UserDto> {
  return [
    { title: 'ID', dataIndex: 'id', key: 'id' },
    {
      title: t('用户名'),
      dataIndex: 'username',
      key: 'username',
      render: (_: unknown, u) => (
        <Space orientation="vertical" size={0}>
          <span>{u.username}</span>
          {u.display_name && u.display_name !== u.username && (
            <Typography.Text type="secondary">{u.display_name}</Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('分组'), dataIndex: 'group', key: 'group', render: (g: string) => <Tag>{g}</Tag> },
    {
      title: t('统计信息'),
      key: 'stats',
      render: (_: unknown, u) => (
        <Space size={4} wrap>
          <Tag>{t('剩余额度：{quota}', { quota: formatQuota(u.quota, display) })}</Tag>
          <Tag>{t('已用额度：{quota}', { quota: formatQuota(u.used_quota, display) })}</Tag>
          <Tag>{t('调用次数：{count}', { count: u.request_count })}</Tag>
        </Space>
      ),
    },
    { title: t('用户角色'), dataIndex: 'role', key: 'role', render: (r: number) => <RoleTag role={r} /> },
    { title: t('状态'), dataIndex: 'status', key: 'status', render: (_: unknown, u) => <StatusTag user={u} /> },
    {
      title: t('操作'),
      key: 'actions',
      render: (_: unknown, u) =>
        isDeleted(u) ? null : (
          <Space size={4} wrap>
            <Button size="small" onClick={() => void actions.manage(u, 'promote')}>
              {t('提升')}
            </Button>
            <Button size="small" onClick={() => void actions.manage(u, 'demote')}>
              {t('降级')}
            </Button>
            {u.status === USER_STATUS.ENABLED ? (
              <Button size="small" onClick={() => void actions.manage(u, 'disable')}>
                {t('禁用')}
              </Button>
            ) : (
              <Button size="small" disabled={u.status === 3} onClick={() => void actions.manage(u, 'enable')}>
                {t('启用')}
              </Button>
            )}
            <Button size="small" onClick={() => actions.edit(u)}>
              {t('编辑')}
            </Button>
            <Popconfirm
              title={t('确定是否要注销此用户？')}
              description={t('相当于删除用户，此修改将不可逆')}
              okText={t('确定')}
              cancelText={t('取消')}
              onConfirm={() => actions.manage(u, 'delete')}
            >
              <Button size="small" danger>
                {t('删除')}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];
}
