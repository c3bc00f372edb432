import { useMemo, useState } from 'react';
import { App, Button, Card, Form, Input, Space, Table, Typography } from 'antd';
import { REDEMPTION_STATUS, type RedemptionDto } from '@switchyard/shared';
import { redemptionApi } from '../../api/redemption';
import { useQuotaDisplay } from '../../app/status';
import { useCopyText } from '../../components/useCopyText';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { redemptionColumns, type RedemptionRowActions } from './columns';
import { codesText, downloadTextFile } from './download';
import { RedemptionDrawer } from './RedemptionDrawer';
import { useRedemptions } from './useRedemptions';

type DrawerState = { mode: 'create' } | { mode: 'edit'; id: number } | null;

export default function RedemptionPage() {
  const display = useQuotaDisplay();
  const copy = useCopyText();
  const { modal } = App.useApp();
  const [keyword, setKeyword] = useState<string | null>(null);
  const { items, loading, pagination, setPage, patch, refresh } = useRedemptions(keyword);
  const [selected, setSelected] = useState<RedemptionDto[]>([]);
  const [drawer, setDrawer] = useState<DrawerState>(null);

  const runSearch = (values: { keyword?: string }) => {
    const text = (values.keyword ?? '').trim();
    setPage(1);
    setKeyword(text === '' ? null : text);
  };

  const actions: RedemptionRowActions = useMemo(
    () => ({
      copy: (row) => void copy(row.key),
      remove: async (row) => {
        try {
          await redemptionApi.remove(row.id);
          notify.success(t('操作成功完成！'));
          setSelected((rows) => rows.filter((r) => r.id !== row.id));
          await refresh();
        } catch {
          // The API client has shown the failure.
        }
      },
      toggle: async (row) => {
        const next = row.status === REDEMPTION_STATUS.UNUSED ? REDEMPTION_STATUS.DISABLED : REDEMPTION_STATUS.UNUSED;
        try {
          const updated = await redemptionApi.setStatus(row.id, next);
          patch(row.id, { status: updated?.status ?? next });
          notify.success(t('操作成功完成！'));
        } catch {
          // The API client has shown the failure (for example, the code was redeemed meanwhile).
          await refresh();
        }
      },
      edit: (row) => setDrawer({ mode: 'edit', id: row.id }),
    }),
    [copy, patch, refresh],
  );
  const columns = useMemo(() => redemptionColumns(display, actions), [display, actions]);

  const copySelected = () => {
    if (selected.length === 0) {
      notify.error(t('请至少选择一个兑换码！'));
      return;
    }
    void copy(selected.map((row) => row.key).join('\n'));
  };

  const offerDownload = (keys: string[], name: string) => {
    void refresh();
    modal.confirm({
      title: t('兑换码创建成功'),
      content: (
        <>
          <p>{t('兑换码创建成功，是否下载兑换码？')}</p>
          <Typography.Text type="secondary">{t('兑换码将以文本文件的形式下载，文件名为兑换码的名称。')}</Typography.Text>
        </>
      ),
      okText: t('下载'),
      cancelText: t('取消'),
      onOk: () => downloadTextFile(codesText(keys), `${name}.txt`),
    });
  };

  return (
    <Card>
      <Form name="redemption-search" layout="inline" onFinish={runSearch} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="keyword" label={t('关键字')}>
          <Input allowClear placeholder={t('搜索兑换码的 ID 和名称 ...')} style={{ width: 300 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('查询')}
          </Button>
        </Form.Item>
      </Form>
      <Space style={{ marginBottom: 16 }} wrap>
        <Button type="primary" onClick={() => setDrawer({ mode: 'create' })}>
          {t('添加兑换码')}
        </Button>
        <Button onClick={copySelected}>{t('复制所选兑换码到剪贴板')}</Button>
      </Space>
      <Table<RedemptionDto>
        rowKey="id"
        columns={columns}
        dataSource={items}
        loading={loading}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selected.map((row) => row.id),
          onChange: (_keys, rows) => setSelected(rows),
        }}
      />
      <RedemptionDrawer
        open={drawer !== null}
        editingId={drawer?.mode === 'edit' ? drawer.id : null}
        onClose={() => setDrawer(null)}
        onSaved={() => void refresh()}
        onCreated={offerDownload}
      />
    </Card>
  );
}
