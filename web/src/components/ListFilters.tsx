import { Button, DatePicker, Form, Input } from 'antd';
import { TIME_FORMAT } from '../lib/format';
import { t } from '../lib/i18n';

/*
 * The fields of the list pages' inline filter forms (log, dashboard, drawing and task lists), so every filter bar
 * looks and reads the same: optional text fields, a start and end time, and the query button.
 */

/** An optional text filter. */
export function TextFilter({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item name={name} label={label}>
      <Input allowClear placeholder={t('可选值')} />
    </Form.Item>
  );
}

/** The time window: fields `start` and `end` (dayjs values; empty = open). */
export function TimeRangeFilter() {
  return (
    <>
      <Form.Item name="start" label={t('起始时间')}>
        <DatePicker showTime format={TIME_FORMAT} />
      </Form.Item>
      <Form.Item name="end" label={t('结束时间')}>
        <DatePicker showTime format={TIME_FORMAT} />
      </Form.Item>
    </>
  );
}

/** Submits the filter form. */
export function SearchButton({ loading }: { loading: boolean }) {
  return (
    <Form.Item>
      <Button type="primary" htmlType="submit" loading={loading}>
        {t('查询')}
      </Button>
    </Form.Item>
  );
}
