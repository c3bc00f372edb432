import { useState } from 'react';
import { Button, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CHANNEL_STATUS, channelStatusName } from '@switchyard/shared';
import type { ChannelDto } from '../../api/channel';
import { channelKeysApi, type ChannelKeyState } from '../../api/channelKeys';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';

interface MultiKeyDialogProps {
  /** The multi-key channel whose keys are shown; null closes the dialog. */
  channel: ChannelDto | null;
  onClose(): void;
  /** Key changes may switch the channel on or off: the list reloads. */
  onChanged(): void;
}

const PAGE_SIZE = 10;
const STATUS_COLOR: Record<number, string> = { 1: 'green', 2: 'red', 3: 'yellow' };

/** 多密钥管理: each key of a multi-key channel with its status, why and when it went off, and switches. */
export function MultiKeyDialog({ channel, onClose, onChanged }: MultiKeyDialogProps) {
  return (
    <Modal
      open={channel !== null}
      title={channel ? `${t('多密钥管理')} · ${channel.name}` : t('多密钥管理')}
      footer={null}
      width={760}
      destroyOnHidden
      onCancel={onClose}
    >
      {channel && <KeyTable channel={channel} onChanged={onChanged} />}
    </Modal>
  );
}

function KeyTable({ channel, onChanged }: { channel: ChannelDto; onChanged(): void }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<number | undefined>(undefined);
  const queryClient = useQueryClient();
  const queryKey = ['channel-keys', channel.id, page, status];
  const keys = useQuery({ queryKey, queryFn: () => channelKeysApi.status(channel.id, page, PAGE_SIZE, status) });

  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
      notify.success(t('操作成功完成！'));
      await queryClient.invalidateQueries({ queryKey: ['channel-keys', channel.id] });
      onChanged();
    } catch {
      // The API client has shown the failure.
    }
  };

  const columns: ColumnsType<ChannelKeyState> = [
    { title: t('索引'), dataIndex: 'index', key: 'index', width: 70 },
    { title: t('密钥'), dataIndex: 'key_preview', key: 'key_preview', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    {
      title: t('状态'),
      dataIndex: 'status',
      key: 'status',
      render: (s: number) => <Tag color={STATUS_COLOR[s] ?? 'default'}>{t(channelStatusName(s))}</Tag>,
    },
    {
      title: t('禁用原因'),
      dataIndex: 'reason',
      key: 'reason',
      render: (reason?: string) =>
        reason ? (
          <Tooltip title={reason}>
            <Typography.Text ellipsis style={{ maxWidth: 200 }}>
              {reason}
            </Typography.Text>
          </Tooltip>
        ) : (
          '-'
        ),
    },
    {
      title: t('余额'),
      dataIndex: 'balance',
      key: 'balance',
      render: (balance: number | undefined, k) =>
        balance === undefined ? (
          '-'
        ) : (
          <Tooltip title={k.balance_updated_time ? `${t('更新时间：')}${formatUnixTime(k.balance_updated_time)}` : undefined}>
            {`$${balance.toFixed(2)}`}
          </Tooltip>
        ),
    },
    {
      title: t('禁用时间'),
      dataIndex: 'disabled_time',
      key: 'disabled_time',
      render: (time?: number) => (time ? formatUnixTime(time) : '-'),
    },
    {
      title: t('操作'),
      key: 'actions',
      render: (_: unknown, k) => (
        <Space size={4}>
          {k.status === CHANNEL_STATUS.ENABLED ? (
            <Button size="small" onClick={() => void run(() => channelKeysApi.disable(channel.id, k.index))}>
              {t('禁用')}
            </Button>
          ) : (
            <Button size="small" onClick={() => void run(() => channelKeysApi.enable(channel.id, k.index))}>
              {t('启用')}
            </Button>
          )}
          <Popconfirm
            title={t('确定删除此密钥？')}
            okText={t('确定')}
            cancelText={t('取消')}
            onConfirm={() => run(() => channelKeysApi.remove(channel.id, k.index))}
          >
            <Button size="small" danger>
              {t('删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const data = keys.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Tag color="green">{`${t('已启用')} ${data?.enabled_count ?? 0}`}</Tag>
        <Tag color="red">{`${t('手动禁用')} ${data?.manual_disabled_count ?? 0}`}</Tag>
        <Tag color="yellow">{`${t('自动禁用')} ${data?.auto_disabled_count ?? 0}`}</Tag>
        <Select
          aria-label={t('状态筛选')}
          style={{ width: 140 }}
          value={status ?? 0}
          onChange={(v: number) => {
            setStatus(v === 0 ? undefined : v);
            setPage(1);
          }}
          options={[
            { value: 0, label: t('全部状态') },
            { value: 1, label: t('已启用') },
            { value: 2, label: t('手动禁用') },
            { value: 3, label: t('自动禁用') },
          ]}
        />
        <Button size="small" onClick={() => void run(() => channelKeysApi.enableAll(channel.id))}>
          {t('启用全部密钥')}
        </Button>
        <Popconfirm title={t('确定禁用全部密钥？')} okText={t('确定')} cancelText={t('取消')} onConfirm={() => run(() => channelKeysApi.disableAll(channel.id))}>
          <Button size="small">{t('禁用全部密钥')}</Button>
        </Popconfirm>
        <Popconfirm
          title={t('确定删除所有自动禁用的密钥？')}
          okText={t('确定')}
          cancelText={t('取消')}
          onConfirm={() => run(() => channelKeysApi.removeAutoDisabled(channel.id))}
        >
          <Button size="small" danger>
            {t('删除自动禁用的密钥')}
          </Button>
        </Popconfirm>
      </Space>
      <Table<ChannelKeyState>
        rowKey="index"
        size="small"
        loading={keys.isLoading}
        columns={columns}
        dataSource={data?.keys ?? []}
        pagination={{ current: data?.page ?? page, pageSize: PAGE_SIZE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      />
    </Space>
  );
}
