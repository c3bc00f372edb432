import { useCallback, useMemo, useState } from 'react';
import { App, Card, Descriptions, Form, Select, Space, Spin, Tag } from 'antd';
import { formatBalance, formatQuota, isAdmin, type LogDto } from '@switchyard/shared';
import { userApi } from '../../api/user';
import { useAuth } from '../../app/auth';
import { useQuotaDisplay } from '../../app/status';
import { SearchButton, TextFilter, TimeRangeFilter } from '../../components/ListFilters';
import { PagedTable } from '../../components/PagedTable';
import { useCopyText } from '../../components/useCopyText';
import { formatCacheHitRate } from '../../lib/format';
import { t } from '../../lib/i18n';
import { logColumns, type LogRowActions } from './columns';
import { LOG_TYPE_OPTIONS, defaultWindow, logQueryOf, type LogFilterValues } from './logView';
import { useLogStat, useLogs, type LogSearch } from './useLogs';

/** /log: summary badges, filters, the type dropdown and the log table; admins see every user's logs. */
export default function LogPage() {
  const { user } = useAuth();
  const admin = isAdmin(user?.role);
  const self = !admin;
  const display = useQuotaDisplay();
  const copy = useCopyText();
  const { modal } = App.useApp();
  const [form] = Form.useForm<LogFilterValues>();
  const [initialValues] = useState<LogFilterValues>(() => {
    const [start, end] = defaultWindow();
    return { start, end, token_name: '', model_name: '', channel: '', username: '' };
  });
  const [type, setType] = useState(0);
  const [search, setSearch] = useState<LogSearch>(() => ({ query: logQueryOf(initialValues, 0, admin), run: 0 }));
  const logs = useLogs(self, search);
  const stat = useLogStat(self, search);

  const { resetPage } = logs;
  const runSearch = useCallback(
    (nextType: number) => {
      resetPage();
      setSearch((old) => ({ query: logQueryOf(form.getFieldsValue(), nextType, admin), run: old.run + 1 }));
    },
    [admin, form, resetPage],
  );

  const actions: LogRowActions = useMemo(
    () => ({
      copy: (text) => void copy(text),
      showUser: (log: LogDto) => {
        void userApi.get(log.user_id).then(
          (u) => {
            modal.info({
              title: t('用户信息'),
              okText: t('关闭'),
              content: (
                <Descriptions column={1} size="small" style={{ marginTop: 12 }}>
                  <Descriptions.Item label={t('用户名')}>{u.username}</Descriptions.Item>
                  <Descriptions.Item label={t('余额')}>{formatBalance(u.quota, display)}</Descriptions.Item>
                  <Descriptions.Item label={t('已用额度')}>{formatQuota(u.used_quota, display)}</Descriptions.Item>
                  <Descriptions.Item label={t('请求次数')}>{u.request_count}</Descriptions.Item>
                  <Descriptions.Item label={t('分组')}>{u.group}</Descriptions.Item>
                </Descriptions>
              ),
            });
          },
          () => undefined, // the API client has shown the failure
        );
      },
    }),
    [copy, display, modal],
  );
  const columns = useMemo(() => logColumns(admin, display, actions), [admin, display, actions]);
  // Sums under a cent keep the table's six decimals instead of rounding up to the smallest two-decimal amount.
  const statQuota = (quota: number) =>
    formatQuota(quota, display, display.displayInCurrency && quota < display.quotaPerUnit / 100 ? 6 : 2);

  return (
    <Card>
      <Spin spinning={stat.isFetching}>
        <Space wrap style={{ marginBottom: 16 }}>
          <Tag color="green" style={{ padding: '4px 12px', fontSize: 14 }}>
            {`${t('消耗额度')}: ${statQuota(stat.data?.quota ?? 0)}`}
          </Tag>
          <Tag color="blue" style={{ padding: '4px 12px', fontSize: 14 }}>{`RPM: ${stat.data?.rpm ?? 0}`}</Tag>
          <Tag color="purple" style={{ padding: '4px 12px', fontSize: 14 }}>{`TPM: ${stat.data?.tpm ?? 0}`}</Tag>
          <Tag color="cyan" style={{ padding: '4px 12px', fontSize: 14 }}>
            {`${t('缓存命中率')}: ${formatCacheHitRate(stat.data?.cache_tokens ?? 0, stat.data?.prompt_tokens ?? 0)}`}
          </Tag>
        </Space>
      </Spin>
      <Form
        form={form}
        name="log-search"
        layout="inline"
        initialValues={initialValues}
        onFinish={() => runSearch(type)}
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <TimeRangeFilter />
        <TextFilter name="token_name" label={t('令牌名称')} />
        <TextFilter name="model_name" label={t('模型名称')} />
        {admin && (
          <>
            <TextFilter name="channel" label={t('渠道 ID')} />
            <TextFilter name="username" label={t('用户名称')} />
          </>
        )}
        <SearchButton loading={logs.loading} />
      </Form>
      <Select
        aria-label={t('日志类型')}
        value={type}
        style={{ width: 120, marginBottom: 12 }}
        options={LOG_TYPE_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
        onChange={(value: number) => {
          setType(value);
          runSearch(value);
        }}
      />
      <PagedTable<LogDto> list={logs} columns={columns} />
    </Card>
  );
}
