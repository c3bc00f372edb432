import { Button, Form } from 'antd';
import { t } from '../../../lib/i18n';
import { OptionFields } from './OptionFields';
import type { OptionField } from './optionFields';
import { useOptionForm } from './useOptionForm';

/** One option with its own save button (the other tab saves each piece of site content on its own). */
export function SingleOptionForm({ field, saveLabel }: { field: readonly [OptionField]; saveLabel: string }) {
  const { form, options, saving, submit, onFinishFailed } = useOptionForm(field);
  return (
    <Form form={form} layout="vertical" name={`option-${field[0].key}`} onFinish={(v) => void submit(v)} onFinishFailed={onFinishFailed} style={{ marginBottom: 24 }}>
      <OptionFields fields={field} />
      <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
        {t(saveLabel)}
      </Button>
    </Form>
  );
}
