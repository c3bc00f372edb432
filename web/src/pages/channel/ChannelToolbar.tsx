import { useState } from 'react';
import { Button, Popconfirm, Space, Switch, Typography } from 'antd';
import { channelApi } from '../../api/channel';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { fixResultText } from './channelForm';

interface Props {
  selectedIds: number[];
  idSort: boolean;
  onIdSortChange(on: boolean): void;
  onAdd(): void;
  /** Called after an operation changed the list (the selection is cleared by the page). */
  onChanged(opts?: { clearSelection?: boolean }): void;
}

type Busy = 'testAll' | 'balances' | 'deleteDisabled' | 'batchDelete' | 'fix' | null;

/** The channel page's buttons: add, bulk operations and the id sort switch. */
export function ChannelToolbar({ selectedIds, idSort, onIdSortChange, onAdd, onChanged }: Props) {
  const [busy, setBusy] = useState<Busy>(null);
  const [batchConfirm, setBatchConfirm] = useState(false);

  const run = async (which: Exclude<Busy, null>, work: () => Promise<void>) => {
    setBusy(which);
    try {
      await work();
    } catch {
      // The API client has shown the failure.
    } finally {
      setBusy(null);
    }
  };

  const testAll = () =>
    run('testAll', async () => {
      notify.info(t('正在开始测试所有渠道……'));
      await channelApi.testAll();
      notify.success(t('已成功开始测试所有渠道，请刷新页面查看结果。'));
    });

  const updateBalances = () =>
    run('balances', async () => {
      notify.info(t('正在更新所有已启用通道余额，请稍候……'));
      const result = await channelApi.updateAllBalances();
      const failed = result?.failed?.length ?? 0;
      notify.success(
        failed > 0
          ? t('已更新完毕所有已启用通道余额！成功 {ok} 个，失败 {failed} 个（ID：{ids}）', {
              ok: result?.updated ?? 0,
              failed,
              ids: (result?.failed ?? []).join(', '),
            })
          : t('已更新完毕所有已启用通道余额！'),
      );
      onChanged();
    });

  const deleteDisabled = () =>
    run('deleteDisabled', async () => {
      const count = await channelApi.deleteDisabled();
      notify.success(t('已删除所有禁用渠道，共计 {n} 个', { n: Number(count) || 0 }));
      onChanged({ clearSelection: true });
    });

  const askBatchDelete = () => {
    if (selectedIds.length === 0) {
      notify.error(t('请先选择要删除的通道！'));
      return;
    }
    setBatchConfirm(true);
  };

  const batchDelete = () =>
    run('batchDelete', async () => {
      setBatchConfirm(false);
      const count = await channelApi.batchDelete(selectedIds);
      notify.success(t('已删除 {n} 个通道！', { n: Number(count) || 0 }));
      onChanged({ clearSelection: true });
    });

  const fix = () =>
    run('fix', async () => {
      const result = await channelApi.fix();
      notify.success(fixResultText(result));
      onChanged();
    });

  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Button type="primary" onClick={onAdd}>
        {t('添加渠道')}
      </Button>
      <Button loading={busy === 'testAll'} onClick={() => void testAll()}>
        {t('测试所有渠道')}
      </Button>
      <Button loading={busy === 'balances'} onClick={() => void updateBalances()}>
        {t('更新所有已启用通道余额')}
      </Button>
      <Popconfirm
        title={t('确定是否要删除禁用通道？')}
        okText={t('确定')}
        cancelText={t('取消')}
        onConfirm={() => deleteDisabled()}
      >
        <Button danger loading={busy === 'deleteDisabled'}>
          {t('删除禁用通道')}
        </Button>
      </Popconfirm>
      <Popconfirm
        open={batchConfirm}
        onOpenChange={(open) => {
          if (!open) setBatchConfirm(false);
        }}
        title={t('确定是否要删除所选通道？')}
        description={t('共 {n} 个，此修改将不可逆', { n: selectedIds.length })}
        okText={t('确定')}
        cancelText={t('取消')}
        onConfirm={() => batchDelete()}
        onCancel={() => setBatchConfirm(false)}
      >
        <Button danger loading={busy === 'batchDelete'} onClick={askBatchDelete}>
          {t('批量删除')}
        </Button>
      </Popconfirm>
      <Popconfirm
        title={t('确定是否要修复数据库一致性？')}
        description={t('进行该操作时，可能导致渠道访问错误，请仅在数据库出现问题时使用')}
        okText={t('确定')}
        cancelText={t('取消')}
        onConfirm={() => fix()}
      >
        <Button loading={busy === 'fix'}>{t('修复数据库一致性')}</Button>
      </Popconfirm>
      <Space size={6}>
        <Switch id="channel-id-sort" checked={idSort} onChange={onIdSortChange} />
        <Typography.Text>
          <label htmlFor="channel-id-sort">{t('使用ID排序')}</label>
        </Typography.Text>
      </Space>
    </Space>
  );
}
