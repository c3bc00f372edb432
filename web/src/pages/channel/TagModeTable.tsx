import { useState } from 'react';
import { Button, Popconfirm, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { channelApi, type ChannelDto } from '../../api/channel';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { TagEditModal } from './TagEditModal';
import { tagRows, type TagRow } from './tagRows';

export const TAG_MODE_KEY = ['channel-tag-mode'] as const;
const PAGE_SIZE = 10;

interface TagModeTableProps {
  idSort: boolean;
  /** The channel list's own columns, for the channels a tag row expands to. */
  channelColumns: ColumnsType<ChannelDto>;
}

/** The channel list in tag mode: one row per tag (a page of tags at a time), expanding to the tag's channels. */
export function TagModeTable({ idSort, channelColumns }: TagModeTableProps) {
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...TAG_MODE_KEY, page, idSort],
    queryFn: () => channelApi.listTagMode(page - 1, PAGE_SIZE, idSort),
  });
  const rows = tagRows(query.data ?? []);

  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
      notify.success(t('操作成功完成！'));
      await query.refetch();
    } catch {
      // The API client has shown the failure.
    }
  };

  const columns: ColumnsType<TagRow> = [
    { title: t('标签'), dataIndex: 'tag', render: (tag: string) => <Tag color="blue">{tag}</Tag> },
    { title: t('渠道数'), render: (_, row) => row.channels.length },
    {
      title: t('状态'),
      render: (_, row) => (
        <Tag color={row.enabled === row.channels.length ? 'green' : row.enabled === 0 ? 'red' : 'orange'}>
          {t('已启用 {enabled}/{total}', { enabled: row.enabled, total: row.channels.length })}
        </Tag>
      ),
    },
    { title: t('优先级'), render: (_, row) => row.priority ?? t('不一致') },
    { title: t('权重'), render: (_, row) => row.weight ?? t('不一致') },
    {
      title: t('操作'),
      render: (_, row) => (
        <Space size={4} wrap>
          <Button size="small" onClick={() => void run(() => channelApi.enableTag(row.tag))}>
            {t('启用全部')}
          </Button>
          <Popconfirm title={t('确定禁用标签 {tag} 下的全部渠道？', { tag: row.tag })} onConfirm={() => void run(() => channelApi.disableTag(row.tag))}>
            <Button size="small" danger>
              {t('禁用全部')}
            </Button>
          </Popconfirm>
          <Button size="small" onClick={() => setEditing(row.tag)}>
            {t('编辑标签')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Table<TagRow>
        rowKey="tag"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('没有带标签的渠道') }}
        expandable={{
          expandedRowRender: (row) => (
            <Table<ChannelDto> rowKey="id" size="small" columns={channelColumns} dataSource={row.channels} pagination={false} scroll={{ x: 'max-content' }} />
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          // The server does not count tags: a full page means there may be another.
          total: (page - 1) * PAGE_SIZE + rows.length + (rows.length === PAGE_SIZE ? 1 : 0),
          showSizeChanger: false,
          onChange: setPage,
        }}
      />
      <TagEditModal tag={editing} onClose={() => setEditing(null)} onSaved={() => void query.refetch()} />
    </>
  );
}
