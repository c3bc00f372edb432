import { Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { QUOTA_TYPE, type PricingEntry } from '@switchyard/shared';
import { t } from '../../lib/i18n';
import { availableIn, formatRatio, shownPrice } from './pricingView';

export interface PricingColumnContext {
  /** The group whose prices are shown. */
  group: string;
  groupRatio: number;
  /** Groups the visitor can pick (chips); other groups show as plain tags. */
  selectable: ReadonlySet<string>;
  selectGroup(group: string): void;
  copyName(name: string): void;
}

function Availability({ entry, group }: { entry: PricingEntry; group: string }) {
  if (availableIn(entry, group)) {
    return (
      <Tooltip title={t('可用')}>
        <CheckCircleFilled style={{ color: '#52c41a', fontSize: 18 }} aria-label={t('可用')} />
      </Tooltip>
    );
  }
  const reason = entry.configured ? t('您的分组不可用') : t('模型价格未配置，暂不可用');
  return (
    <Tooltip title={reason}>
      <CloseCircleFilled style={{ color: '#ff4d4f', fontSize: 18 }} aria-label={reason} />
    </Tooltip>
  );
}

function Price({ entry, groupRatio }: { entry: PricingEntry; groupRatio: number }) {
  const shown = shownPrice(entry, groupRatio);
  if (shown.kind === 'unset') return <Tag>{t('价格未配置')}</Tag>;
  if (shown.kind === 'call') return <span>{t('模型价格：{price} / 次', { price: shown.price })}</span>;
  return (
    <Space orientation="vertical" size={0}>
      <span>{t('提示 {price} / 1M tokens', { price: shown.prompt })}</span>
      <span>{t('补全 {price} / 1M tokens', { price: shown.completion })}</span>
    </Space>
  );
}

function Ratios({ entry, groupRatio }: { entry: PricingEntry; groupRatio: number }) {
  const lines =
    entry.quota_type === QUOTA_TYPE.PRICE || !entry.configured
      ? [t('分组倍率：{ratio}', { ratio: formatRatio(groupRatio) })]
      : [
          t('模型倍率：{ratio}', { ratio: formatRatio(entry.model_ratio) }),
          t('补全倍率：{ratio}', { ratio: formatRatio(entry.completion_ratio) }),
          t('分组倍率：{ratio}', { ratio: formatRatio(groupRatio) }),
        ];
  return (
    <Space orientation="vertical" size={0}>
      {lines.map((line) => (
        <Typography.Text key={line} type="secondary">
          {line}
        </Typography.Text>
      ))}
    </Space>
  );
}

export function pricingColumns(ctx: PricingColumnContext): ColumnsType<PricingEntry> {
  return [
    {
      title: t('可用性'),
      key: 'available',
      width: 80,
      align: 'center',
      render: (_: unknown, row) => <Availability entry={row} group={ctx.group} />,
    },
    {
      title: t('模型名称'),
      dataIndex: 'model_name',
      key: 'model_name',
      render: (name: string) => (
        <Tooltip title={t('点击复制模型名称')}>
          <Tag
            color="blue"
            role="button"
            tabIndex={0}
            style={{ cursor: 'pointer', fontSize: 13 }}
            onClick={() => ctx.copyName(name)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') ctx.copyName(name);
            }}
          >
            {name}
          </Tag>
        </Tooltip>
      ),
    },
    {
      title: t('计费类型'),
      dataIndex: 'quota_type',
      key: 'quota_type',
      filters: [
        { text: t('按次计费'), value: QUOTA_TYPE.PRICE },
        { text: t('按量计费'), value: QUOTA_TYPE.RATIO },
      ],
      onFilter: (value, row) => row.quota_type === value,
      render: (type: number) =>
        type === QUOTA_TYPE.PRICE ? <Tag color="cyan">{t('按次计费')}</Tag> : <Tag color="purple">{t('按量计费')}</Tag>,
    },
    {
      title: t('可用分组'),
      dataIndex: 'enable_groups',
      key: 'enable_groups',
      render: (groups: string[]) => (
        <Space size={[4, 4]} wrap>
          {groups.map((g) =>
            ctx.selectable.has(g) ? (
              <Tag
                key={g}
                color={g === ctx.group ? 'blue' : undefined}
                role="button"
                tabIndex={0}
                style={{ cursor: 'pointer' }}
                onClick={() => ctx.selectGroup(g)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') ctx.selectGroup(g);
                }}
              >
                {g}
              </Tag>
            ) : (
              <Tag key={g}>{g}</Tag>
            ),
          )}
        </Space>
      ),
    },
    {
      title: t('倍率'),
      key: 'ratios',
      render: (_: unknown, row) => <Ratios entry={row} groupRatio={ctx.groupRatio} />,
    },
    {
      title: t('模型价格'),
      key: 'price',
      render: (_: unknown, row) => <Price entry={row} groupRatio={ctx.groupRatio} />,
    },
  ];
}
