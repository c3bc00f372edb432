import { useMemo, useState } from 'react';
import { Button, Card, Form, Input, Space, Switch, Table, theme } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { CHANNEL_STATUS, channelTypeName } from '@switchyard/shared';
import { channelApi, type ChannelDto } from '../../api/channel';
import { useCopyText } from '../../components/useCopyText';
import { nowSeconds } from '../../lib/format';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { ChannelDrawer } from './ChannelDrawer';
import { MultiKeyDialog } from './MultiKeyDialog';
import { ChannelToolbar } from './ChannelToolbar';
import { copyOf } from './channelForm';
import { channelColumns, type ChannelRowActions } from './columns';
import { useChannels, type ChannelSearch } from './useChannels';
import { GroupSelect } from '../../components/GroupSelect';
import { TAG_MODE_KEY, TagModeTable } from './TagModeTable';

/** /channel, /channel/add (drawer open for a new channel) and /channel/edit/:id (drawer open on that channel). */
export default function ChannelPage() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { id } = useParams();
  const editingId = id === undefined ? null : Number(id);
  const adding = pathname.replace(/\/+$/, '') === '/channel/add';
  const drawerOpen = adding || (editingId !== null && Number.isInteger(editingId) && editingId > 0);

  const copyText = useCopyText();
  const { token: themeToken } = theme.useToken();
  const [searchForm] = Form.useForm<ChannelSearch>();
  const [search, setSearch] = useState<ChannelSearch | null>(null);
  const { items, loading, pagination, idSort, setIdSort, setPage, patch, refresh } = useChannels(search);
  const [selected, setSelected] = useState<number[]>([]);
  const [testing, setTesting] = useState<ReadonlySet<number>>(new Set());
  const [balancing, setBalancing] = useState<ReadonlySet<number>>(new Set());
  const [tagMode, setTagMode] = useState(false);
  const queryClient = useQueryClient();
  /** A change to one channel, shown in the list and in the tag mode's rows. */
  const patchRow = useMemo(
    () => (id: number, changes: Partial<ChannelDto>) => {
      patch(id, changes);
      void queryClient.invalidateQueries({ queryKey: TAG_MODE_KEY });
    },
    [patch, queryClient],
  );
  const refreshAll = useMemo(
    () => async () => {
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: TAG_MODE_KEY })]);
    },
    [refresh, queryClient],
  );
  const [keysOf, setKeysOf] = useState<ChannelDto | null>(null);

  const runSearch = (values: Partial<ChannelSearch>) => {
    const keyword = (values.keyword ?? '').trim();
    const group = (values.group ?? '').trim();
    const model = (values.model ?? '').trim();
    setPage(1);
    setSearch(keyword === '' && group === '' && model === '' ? null : { keyword, group, model });
  };

  const actions: ChannelRowActions = useMemo(() => {
    const mark = (set: typeof setTesting, id: number, on: boolean) =>
      set((old) => {
        const next = new Set(old);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      });
    return {
      copyName: (row) => void copyText(row.name),
      test: async (row, model) => {
        mark(setTesting, row.id, true);
        try {
          const res = await channelApi.test(row.id, model);
          if (res.success) {
            patchRow(row.id, { response_time: Math.round(res.time * 1000), test_time: nowSeconds() });
            notify.success(
              model
                ? t('通道 {name} 测试成功，模型 {model}，耗时 {time} 秒。', { name: row.name, model, time: res.time.toFixed(2) })
                : t('通道 {name} 测试成功，耗时 {time} 秒。', { name: row.name, time: res.time.toFixed(2) }),
            );
          } else {
            notify.error(res.message || t('测试失败'));
          }
        } catch {
          // The API client has shown the failure.
        } finally {
          mark(setTesting, row.id, false);
        }
      },
      updateBalance: async (row) => {
        mark(setBalancing, row.id, true);
        try {
          const res = await channelApi.updateBalance(row.id);
          if (res.success) {
            patchRow(row.id, { balance: res.balance, balance_updated_time: nowSeconds() });
            notify.success(t('通道 {name} 余额更新成功！', { name: row.name }));
          } else {
            notify.error(res.message || t('余额更新失败'));
          }
        } catch {
          // The API client has shown the failure.
        } finally {
          mark(setBalancing, row.id, false);
        }
      },
      setNumber: async (row, field, value) => {
        try {
          await channelApi.update(row.id, { [field]: value });
          patchRow(row.id, { [field]: value });
          notify.success(t('操作成功完成！'));
        } catch {
          // The API client has shown the failure.
        }
      },
      toggle: async (row) => {
        const next = row.status === CHANNEL_STATUS.ENABLED ? CHANNEL_STATUS.MANUALLY_DISABLED : CHANNEL_STATUS.ENABLED;
        try {
          await channelApi.update(row.id, { status: next });
          patchRow(row.id, { status: next });
          notify.success(t('操作成功完成！'));
        } catch {
          // The API client has shown the failure.
        }
      },
      edit: (row) => void navigate(`/channel/edit/${row.id}`),
      copy: async (row) => {
        let full: ChannelDto;
        try {
          full = await channelApi.get(row.id, true);
        } catch {
          notify.error(t('渠道未找到，请刷新页面后重试。'));
          return;
        }
        try {
          await channelApi.create(copyOf(full), true);
        } catch (err) {
          notify.error(`${t('渠道复制失败')}${err instanceof Error && err.message ? `: ${err.message}` : ''}`);
          return;
        }
        notify.success(t('渠道复制成功'));
        await refreshAll();
      },
      remove: async (row) => {
        try {
          await channelApi.remove(row.id);
          notify.success(t('操作成功完成！'));
          setSelected((old) => old.filter((x) => x !== row.id));
          await refreshAll();
        } catch {
          // The API client has shown the failure.
        }
      },
      manageKeys: setKeysOf,
    };
  }, [copyText, navigate, patchRow, refreshAll]);

  const columns = useMemo(
    () => channelColumns(actions, { testing, balancing, typeName: channelTypeName }),
    [actions, testing, balancing],
  );

  const closeDrawer = () => void navigate('/channel');

  return (
    <Card>
      <Form form={searchForm} name="channel-search" layout="inline" onFinish={runSearch} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="keyword" label={t('关键字')}>
          <Input allowClear placeholder={t('搜索渠道的 ID，名称和密钥 ...')} style={{ width: 280 }} />
        </Form.Item>
        <Form.Item name="group" label={t('分组')}>
          <GroupSelect width={160} />
        </Form.Item>
        <Form.Item name="model" label={t('模型')}>
          <Input allowClear placeholder={t('模型关键字')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('查询')}
          </Button>
        </Form.Item>
      </Form>
      <ChannelToolbar
        selectedIds={selected}
        idSort={idSort}
        onIdSortChange={setIdSort}
        onAdd={() => void navigate('/channel/add')}
        onChanged={(opts) => {
          if (opts?.clearSelection) setSelected([]);
          void refreshAll();
        }}
      />
      <Space style={{ marginBottom: 12 }}>
        <Switch id="channel-tag-mode" checked={tagMode} onChange={setTagMode} />
        <label htmlFor="channel-tag-mode">{t('标签聚合模式')}</label>
      </Space>
      {tagMode ? (
        <TagModeTable idSort={idSort} channelColumns={columns} />
      ) : (
      <Table<ChannelDto>
        rowKey="id"
        columns={columns}
        dataSource={items}
        loading={loading}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
        }}
        onRow={(row) =>
          row.status === CHANNEL_STATUS.ENABLED
            ? {}
            : { style: { background: themeToken.colorFillSecondary, color: themeToken.colorTextTertiary } }
        }
      />
      )}
      <ChannelDrawer
        open={drawerOpen}
        editingId={adding ? null : editingId}
        onClose={closeDrawer}
        onSaved={() => void refreshAll()}
      />
      <MultiKeyDialog channel={keysOf} onClose={() => setKeysOf(null)} onChanged={() => void refreshAll()} />
    </Card>
  );
}
