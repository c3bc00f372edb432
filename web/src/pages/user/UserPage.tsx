import { useMemo, useState } from 'react';
import { Button, Card, Drawer, Form, Input, Space, Table } from 'antd';
import type { UserDto } from '@switchyard/shared';
import { userApi } from '../../api/user';
import { useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { AddUserDrawer } from './AddUserDrawer';
import { userColumns, type UserRowActions } from './columns';
import { EditUserForm } from './EditUserForm';
import { useUsers, type UserSearch } from './useUsers';
import { GroupSelect } from '../../components/GroupSelect';

export default function UserPage() {
  return (
    <UserPageBody />
  );
}

function UserPageBody() {
  const display = useQuotaDisplay();
  const [searchForm] = Form.useForm<UserSearch>();
  const [search, setSearch] = useState<UserSearch | null>(null);
  const { items, loading, pagination, setPage, patch, refresh } = useUsers(search);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserDto | null>(null);

  const runSearch = (values: Partial<UserSearch>) => {
    const keyword = (values.keyword ?? '').trim();
    const group = (values.group ?? '').trim();
    setPage(1);
    setSearch(keyword === '' && group === '' ? null : { keyword, group });
  };

  const actions: UserRowActions = useMemo(
    () => ({
      manage: async (user, action) => {
        try {
          const result = await userApi.manage(user.id, action);
          notify.success(t('操作成功完成！'));
          if (action === 'delete') {
            patch(user.id, { DeletedAt: Math.floor(Date.now() / 1000) });
          } else if (result) {
            patch(user.id, { status: result.status, role: result.role });
          }
        } catch {
          // The API client has shown the failure.
        }
      },
      edit: (user) => setEditing(user),
    }),
    [patch],
  );
  const columns = useMemo(() => userColumns(display, actions), [display, actions]);

  return (
    <Card>
      <Form form={searchForm} name="user-search" layout="inline" onFinish={runSearch} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="keyword" label={t('关键字')}>
          <Input allowClear placeholder={t('搜索用户的 ID，用户名，显示名称，以及邮箱地址 ...')} style={{ width: 320 }} />
        </Form.Item>
        <Form.Item name="group" label={t('分组')}>
          <GroupSelect width={180} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              {t('查询')}
            </Button>
            <Button onClick={() => setAdding(true)}>{t('添加用户')}</Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<UserDto>
        rowKey="id"
        columns={columns}
        dataSource={items}
        loading={loading}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
      />
      <AddUserDrawer open={adding} onClose={() => setAdding(false)} onCreated={() => void refresh()} />
      <Drawer
        open={editing !== null}
        title={t('编辑用户')}
        size={520}
        destroyOnHidden
        onClose={() => setEditing(null)}
      >
        {editing && (
          <EditUserForm
            id={editing.id}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </Drawer>
    </Card>
  );
}
