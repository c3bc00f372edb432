import { Button, Popconfirm, Popover, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  canEditRedemption,
  canToggleRedemption,
  formatQuota,
  REDEMPTION_STATUS,
  type QuotaDisplay,
  type RedemptionDto,
} from '@switchyard/shared';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';

export interface RedemptionRowActions {
  copy(code: RedemptionDto): void;
  remove(code: RedemptionDto): Promise<void>;
  toggle(code: RedemptionDto): Promise<void>;
  edit(code: RedemptionDto): void;
}

export function RedemptionStatusTag({ status }: { status: number }) {
  switch (status) {
    case REDEMPTION_STATUS.UNUSED:
      return <Tag color="green">{t('未使用')}</Tag>;
    case REDEMPTION_STATUS.DISABLED:
      return <Tag color="red">{t('已禁用')}</Tag>;
    case REDEMPTION_STATUS.USED:
      return <Tag color="default">{t('已使用')}</Tag>;
    default:
      return <Tag color="default">{t('未知状态')}</Tag>;
  }
}

export function redemptionColumns(display: QuotaDisplay, actions: RedemptionRowActions): ColumnsType<RedemptionDto> {
  return [
    { title: 'ID', dataIndex: 'id', key: 'id' },
    { title: t('名称'), dataIndex: 'name', key: 'name' },
    {
      title: t('状态'),
      dataIndex: 'status',
      key: 'status',
      render: (status: number) => <RedemptionStatusTag status={status} />,
    },
    {
      title: t('额度'),
      dataIndex: 'quota',
      key: 'quota',
      render: (quota: number) => <span title={String(quota)}>{formatQuota(quota, display)}</span>,
    },
    { title: t('创建时间'), dataIndex: 'created_time', key: 'created_time', render: (v: number) => formatUnixTime(v) },
    {
      title: t('兑换人ID'),
      dataIndex: 'used_user_id',
      key: 'used_user_id',
      render: (id: number, row) =>
        id === 0 ? (
          t('无')
        ) : (
          <span title={row.redeemed_time ? t('兑换时间：{time}', { time: formatUnixTime(row.redeemed_time) }) : undefined}>{id}</span>
        ),
    },
    {
      title: t('操作'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          <Popover
            trigger="click"
            content={
              <Typography.Text code copyable={false} style={{ wordBreak: 'break-all' }}>
                {row.key}
              </Typography.Text>
            }
          >
            <Button size="small">{t('查看')}</Button>
          </Popover>
          <Button size="small" onClick={() => actions.copy(row)}>
            {t('复制')}
          </Button>
          <Popconfirm
            title={t('确定是否要删除此兑换码？')}
            description={t('此修改将不可逆')}
            okText={t('确定')}
            cancelText={t('取消')}
            onConfirm={() => actions.remove(row)}
          >
            <Button size="small" danger>
              {t('删除')}
            </Button>
          </Popconfirm>
          <Button size="small" disabled={!canToggleRedemption(row.status)} onClick={() => void actions.toggle(row)}>
            {row.status === REDEMPTION_STATUS.UNUSED ? t('禁用') : t('启用')}
          </Button>
          <Button size="small" disabled={!canEditRedemption(row.status)} onClick={() => actions.edit(row)}>
            {t('编辑')}
          </Button>
        </Space>
      ),
    },
  ];
}
