import { useMemo, useState } from 'react';
import { Alert, Button, Card, Input, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { PricingEntry } from '@switchyard/shared';
import { pricingApi } from '../../api/pricing';
import { useAuth } from '../../app/auth';
import { useCopyText } from '../../components/useCopyText';
import { t } from '../../lib/i18n';
import { pricingColumns } from './columns';
import { formatRatio, initialGroup, ratioOf, visibleRows } from './pricingView';

/** Public model prices (spec §2 Pricing page): group chips, name filter, copy, prices per 1M tokens or per call. */
export default function PricingPage() {
  const { user } = useAuth();
  const copy = useCopyText();
  // Signing in or out changes the group the server answers for.
  const pricing = useQuery({ queryKey: ['pricing', user?.id ?? 0], queryFn: pricingApi.list });
  const [picked, setPicked] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<string[]>([]);

  const data = pricing.data;
  const ownGroup = initialGroup(data);
  const group = picked ?? ownGroup;
  const groupRatio = ratioOf(data, group);
  const groups = useMemo(() => Object.keys(data?.group_ratio ?? {}), [data]);
  const rows = useMemo(() => visibleRows(data?.data ?? [], keyword), [data, keyword]);
  const columns = useMemo(
    () =>
      pricingColumns({
        group,
        groupRatio,
        selectable: new Set(groups),
        selectGroup: setPicked,
        copyName: (name) => void copy(name),
      }),
    [group, groupRatio, groups, copy],
  );

  // Names in the table's order, whatever order they were ticked in (hidden by the filter or not).
  const copyList = visibleRows(data?.data ?? [], '').filter((r) => selected.includes(r.model_name)).map((r) => r.model_name).join(',');

  const signedIn = typeof data?.user_group === 'string';
  const notice = signedIn
    ? t('您的分组为：{group}，分组倍率为：{ratio}', { group: ownGroup, ratio: formatRatio(ratioOf(data, ownGroup)) })
    : t('您还未登录，显示的价格为默认分组倍率：{ratio}', { ratio: formatRatio(ratioOf(data, ownGroup)) });

  return (
    <Card>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {data && <Alert type={signedIn ? 'success' : 'warning'} showIcon title={notice} />}
        <Alert
          type="info"
          showIcon
          title={t('按量计费费用 = 分组倍率 × 模型倍率 × （提示token数 + 补全token数 × 补全倍率）/ 500000 （单位：美元）')}
        />
        <Space size={[8, 8]} wrap aria-label={t('分组')}>
          <Typography.Text strong>{t('分组')}</Typography.Text>
          {groups.map((g) => (
            <Tooltip key={g} title={data?.usable_group[g]}>
              <Tag.CheckableTag checked={g === group} onChange={() => setPicked(g)}>
                {`${g} x${formatRatio(ratioOf(data, g))}`}
              </Tag.CheckableTag>
            </Tooltip>
          ))}
        </Space>
        <Space size={[8, 8]} wrap>
          <Input.Search
            allowClear
            placeholder={t('模糊搜索模型名称')}
            aria-label={t('模糊搜索模型名称')}
            style={{ width: 280 }}
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={setKeyword}
          />
          <Button icon={<CopyOutlined />} disabled={selected.length === 0} onClick={() => void copy(copyList)}>
            {t('复制选中模型')}
          </Button>
        </Space>
        <Table<PricingEntry>
          rowKey="model_name"
          columns={columns}
          dataSource={rows}
          loading={pricing.isLoading}
          scroll={{ x: 'max-content' }}
          pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100] }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        />
      </Space>
    </Card>
  );
}
