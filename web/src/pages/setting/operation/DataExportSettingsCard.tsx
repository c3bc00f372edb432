import { useState } from 'react';
import { Button, Card, Col, Form, InputNumber, Row, Select, Switch } from 'antd';
import { t } from '../../../lib/i18n';
import { notifyFirstError, toNumber, useFormSync, useOptionSettings } from './useOptionSettings';

type Granularity = 'hour' | 'day' | 'week';

interface Values {
  DataExportEnabled: boolean;
  DataExportInterval: number | null;
  DataExportDefaultTime: Granularity;
}

const GRANULARITIES: Array<{ value: Granularity; label: string }> = [
  { value: 'hour', label: '小时' },
  { value: 'day', label: '天' },
  { value: 'week', label: '周' },
];

const fromOptions = (o: Record<string, string>): Values => ({
  DataExportEnabled: o.DataExportEnabled === 'true',
  DataExportInterval: toNumber(o.DataExportInterval),
  DataExportDefaultTime: (GRANULARITIES.some((g) => g.value === o.DataExportDefaultTime) ? o.DataExportDefaultTime : 'hour') as Granularity,
});

/**
 * The data dashboard card of the operation tab: whether usage is aggregated for the 数据看板 page (and its menu
 * item shows), how often the aggregation runs (minutes, at least 1) and the default time granularity of the page.
 */
export function DataExportSettingsCard() {
  const { options, save } = useOptionSettings();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const { markSaved } = useFormSync(form, options, fromOptions);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const ok = await save({
        DataExportEnabled: String(values.DataExportEnabled),
        DataExportInterval: String(values.DataExportInterval),
        DataExportDefaultTime: values.DataExportDefaultTime,
      });
      if (ok) markSaved(values);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('数据看板设置')} style={{ marginBottom: 16 }}>
      <Form form={form} layout="vertical" name="data-export-settings" onFinish={(v) => void submit(v)} onFinishFailed={notifyFirstError}>
        <Form.Item name="DataExportEnabled" label={t('启用数据看板（实验性）')} valuePropName="checked">
          <Switch aria-label={t('启用数据看板（实验性）')} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="DataExportInterval"
              label={t('数据看板更新间隔')}
              extra={t('设置过短会影响数据库性能')}
              rules={[
                { required: true, message: t('请输入数据看板更新间隔') },
                { type: 'number', min: 1, message: t('数据看板更新间隔最少为 1 分钟') },
              ]}
            >
              <InputNumber min={1} precision={0} step={1} addonAfter={t('分钟')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="DataExportDefaultTime" label={t('数据看板默认时间粒度')} extra={t('仅修改展示粒度，统计精确到小时')}>
              <Select options={GRANULARITIES.map((g) => ({ value: g.value, label: t(g.label) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
          {t('保存数据看板设置')}
        </Button>
      </Form>
    </Card>
  );
}
