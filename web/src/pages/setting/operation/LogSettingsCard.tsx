import { useState } from 'react';
import { Button, Card, DatePicker, Form, Popconfirm, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { logApi } from '../../../api/log';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { OptionFields } from '../form/OptionFields';
import type { OptionField } from '../form/optionFields';
import { useOptionForm } from '../form/useOptionForm';

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const RETENTION_FIELDS: readonly OptionField[] = [
  { key: 'LogRetentionDays', kind: 'number', min: 0, integer: true, unit: '天', label: '日志保留天数', extra: '超过天数的日志每小时自动清理，0 表示永久保留' },
  { key: 'QuotaDataRetentionDays', kind: 'number', min: 0, integer: true, unit: '天', label: '数据看板保留天数', extra: '数据看板的统计数据单独保留，0 表示永久保留' },
];

/**
 * The operation tab's log card: switch consume logging on or off, how long logs and dashboard data are kept (the
 * log-retention job deletes what is older), and clear the logs older than a time (default one month back, spec §9).
 */
export function LogSettingsCard() {
  const queryClient = useQueryClient();
  const consumeLogging = useQuery({ queryKey: ['option', 'LogConsumeEnabled'], queryFn: logApi.consumeLogging });
  const [saving, setSaving] = useState(false);
  const [before, setBefore] = useState<dayjs.Dayjs | null>(() => dayjs().subtract(1, 'month'));
  const [clearing, setClearing] = useState(false);
  const retention = useOptionForm(RETENTION_FIELDS);

  const toggle = async (on: boolean) => {
    setSaving(true);
    try {
      await logApi.setConsumeLogging(on);
      queryClient.setQueryData(['option', 'LogConsumeEnabled'], on);
      notify.success(t('保存成功'));
    } catch {
      // The API client has shown the failure.
    } finally {
      setSaving(false);
    }
  };

  const clear = async () => {
    if (!before) {
      notify.error(t('请选择日志记录时间'));
      return;
    }
    setClearing(true);
    try {
      const count = await logApi.clear(before.unix());
      notify.success(t('{n} 条日志已清理！', { n: count }));
      await queryClient.invalidateQueries({ queryKey: ['logs'] });
      await queryClient.invalidateQueries({ queryKey: ['log-stat'] });
    } catch {
      // The API client has shown the failure.
    } finally {
      setClearing(false);
    }
  };

  return (
    <Card title={t('日志设置')} style={{ marginBottom: 16 }}>
      <Form layout="vertical" name="log-settings">
        <Form.Item label={t('启用额度消费日志记录')}>
          <Switch
            aria-label={t('启用额度消费日志记录')}
            checked={consumeLogging.data ?? false}
            loading={consumeLogging.isFetching || saving}
            onChange={(on) => void toggle(on)}
          />
        </Form.Item>
        <Form.Item
          label={t('日志记录时间')}
          extra={<Typography.Text type="secondary">{t('将清除选定时间之前的所有日志')}</Typography.Text>}
        >
          <Space wrap>
            <DatePicker showTime format={TIME_FORMAT} value={before} onChange={(v) => setBefore(v)} aria-label={t('日志记录时间')} />
            <Popconfirm
              title={t('确定清除历史日志？')}
              description={t('此操作不可撤销。')}
              okText={t('清除')}
              cancelText={t('取消')}
              okButtonProps={{ danger: true }}
              onConfirm={() => clear()}
              disabled={!before}
            >
              <Button danger loading={clearing} onClick={before ? undefined : () => void clear()}>
                {t('清除历史日志')}
              </Button>
            </Popconfirm>
          </Space>
        </Form.Item>
      </Form>
      <Form
        form={retention.form}
        layout="vertical"
        name="log-retention"
        onFinish={(v) => void retention.submit(v)}
        onFinishFailed={retention.onFinishFailed}
      >
        <OptionFields fields={RETENTION_FIELDS} secretsSet={retention.secretsSet} />
        <Button type="primary" htmlType="submit" loading={retention.saving} disabled={!retention.options}>
          {t('保存日志保留设置')}
        </Button>
      </Form>
    </Card>
  );
}
