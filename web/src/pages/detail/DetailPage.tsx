import { useMemo, useState } from 'react';
import { Card, Col, Empty, Form, Result, Row, Select, Spin, Statistic, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatQuota, isAdmin } from '@switchyard/shared';
import { useAuth } from '../../app/auth';
import { useQuotaDisplay, useStatus } from '../../app/status';
import { Chart } from '../../components/Chart';
import { SearchButton, TextFilter, TimeRangeFilter } from '../../components/ListFilters';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { formatCacheHitRate, nowSeconds } from '../../lib/format';
import {
  aggregate,
  averagePerMinute,
  defaultRange,
  parseGranularity,
  SELF_MAX_SPAN_SECONDS,
  type Granularity,
  type ModelUsage,
  type TimeRange,
} from './aggregate';
import { callsByModel, modelShare, quotaOverTime } from './charts';
import { useQuotaData, type DataSearch } from './useQuotaData';

const GRANULARITY_OPTIONS: Array<{ value: Granularity; label: string }> = [
  { value: 'hour', label: '小时' },
  { value: 'day', label: '天' },
  { value: 'week', label: '周' },
];

interface FilterValues {
  start: Dayjs | null;
  end: Dayjs | null;
  granularity: Granularity;
  username: string;
}

/** /detail: usage per model over time from the hourly roll-up, with totals (only while data export is on). */
export default function DetailPage() {
  const { status } = useStatus();
  if (status.enable_data_export === false) {
    return (
      <Card>
        <Result status="info" title={t('数据看板未启用')} subTitle={t('管理员可在运营设置的数据看板设置中开启。')} />
      </Card>
    );
  }
  return <Dashboard defaultGranularity={parseGranularity(status.data_export_default_time)} />;
}

function Dashboard({ defaultGranularity }: { defaultGranularity: Granularity }) {
  const { user } = useAuth();
  const admin = isAdmin(user?.role);
  const display = useQuotaDisplay();
  const [form] = Form.useForm<FilterValues>();
  const [initial] = useState(() => {
    const range = defaultRange(defaultGranularity, nowSeconds());
    const values: FilterValues = {
      start: dayjs.unix(range.start),
      end: dayjs.unix(range.end),
      granularity: defaultGranularity,
      username: '',
    };
    return { values, search: { range, username: '', run: 0 } satisfies DataSearch };
  });
  const [granularity, setGranularity] = useState<Granularity>(defaultGranularity);
  const [search, setSearch] = useState<DataSearch>(initial.search);
  const query = useQuotaData(admin, search);

  const runSearch = (values: FilterValues) => {
    if (!values.start || !values.end) {
      notify.error(t('请选择起始时间和结束时间'));
      return;
    }
    const range: TimeRange = { start: values.start.unix(), end: values.end.unix() };
    if (range.start >= range.end) {
      notify.error(t('起始时间必须早于结束时间'));
      return;
    }
    if (!admin && range.end - range.start > SELF_MAX_SPAN_SECONDS) {
      notify.error(t('时间跨度不能超过 1 个月'));
      return;
    }
    setSearch((old) => ({ range, username: (values.username ?? '').trim(), run: old.run + 1 }));
  };

  const rows = query.data;
  const dashboard = useMemo(() => aggregate(rows ?? [], granularity, search.range), [rows, granularity, search.range]);
  const { rpm, tpm } = averagePerMinute(dashboard.totals, search.range, nowSeconds());
  const empty = dashboard.models.length === 0;
  const quotaOption = useMemo(() => quotaOverTime(dashboard, display), [dashboard, display]);
  const callsOption = useMemo(() => callsByModel(dashboard), [dashboard]);
  const shareOption = useMemo(() => modelShare(dashboard), [dashboard]);
  const total = (text: string) => <Typography.Text type="secondary">{t('总计：{total}', { total: text })}</Typography.Text>;
  // The ranking grows with the models; the pie beside it keeps the same height.
  const lowerHeight = Math.max(320, 36 * dashboard.models.length + 40);
  const noData = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('暂无数据')} style={{ padding: '48px 0' }} />;

  return (
    <Spin spinning={query.isFetching}>
      <Card style={{ marginBottom: 16 }}>
        <Form
          form={form}
          name="data-search"
          layout="inline"
          initialValues={initial.values}
          onFinish={runSearch}
          onValuesChange={(changed: Partial<FilterValues>) => {
            if (changed.granularity) setGranularity(changed.granularity);
          }}
          style={{ rowGap: 8 }}
        >
          <TimeRangeFilter />
          <Form.Item name="granularity" label={t('时间粒度')}>
            <Select options={GRANULARITY_OPTIONS.map((o) => ({ ...o, label: t(o.label) }))} style={{ width: 96 }} />
          </Form.Item>
          {admin && <TextFilter name="username" label={t('用户名称')} />}
          <SearchButton loading={query.isFetching} />
        </Form>
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
          {t('看板数据定时汇总，最近几分钟内的调用可能尚未计入。')}
        </Typography.Paragraph>
      </Card>

      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {[
          { title: t('统计额度'), value: formatQuota(dashboard.totals.quota, display) },
          { title: t('统计次数'), value: dashboard.totals.count },
          { title: t('统计Tokens'), value: dashboard.totals.tokens },
          { title: t('平均RPM'), value: rpm.toFixed(3) },
          { title: t('平均TPM'), value: tpm.toFixed(3) },
          { title: t('缓存命中率'), value: formatCacheHitRate(dashboard.totals.cacheTokens, dashboard.totals.promptTokens) },
        ].map((s) => (
          <Col key={s.title} xs={12} md={8} xl={4}>
            <Card size="small">
              <Statistic title={s.title} value={s.value} />
            </Card>
          </Col>
        ))}
      </Row>

      <Card title={t('模型消耗分布')} extra={total(formatQuota(dashboard.totals.quota, display))} style={{ marginBottom: 16 }}>
        {empty ? noData : <Chart option={quotaOption} height={400} label={t('模型消耗分布')} />}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('模型调用次数排行')} extra={total(String(dashboard.totals.count))}>
            {empty ? noData : <Chart option={callsOption} height={lowerHeight} label={t('模型调用次数排行')} />}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('模型调用次数占比')} extra={total(String(dashboard.totals.count))}>
            {empty ? noData : <Chart option={shareOption} height={lowerHeight} label={t('模型调用次数占比')} />}
          </Card>
        </Col>
      </Row>
      <Card title={t('各模型缓存命中率')} style={{ marginTop: 16 }}>
        <Table<ModelUsage>
          rowKey="model"
          size="small"
          pagination={false}
          dataSource={dashboard.models}
          locale={{ emptyText: noData }}
          columns={cacheColumns()}
        />
      </Card>
    </Spin>
  );
}

/** Per model: what was prompted, what of it the provider's cache served, and the share (the hit rate). */
const cacheColumns = () => [
  { title: t('模型'), dataIndex: 'model' },
  { title: t('提示 Tokens'), dataIndex: 'promptTokens', align: 'right' as const },
  { title: t('缓存读取 Tokens'), dataIndex: 'cacheTokens', align: 'right' as const },
  {
    title: t('缓存命中率'),
    key: 'rate',
    align: 'right' as const,
    render: (_: unknown, m: ModelUsage) => formatCacheHitRate(m.cacheTokens, m.promptTokens),
  },
];
