import type { ReactNode } from 'react';
import { Button, Card, Form, Typography } from 'antd';
import { t } from '../../../lib/i18n';
import { OptionFields } from './OptionFields';
import type { OptionField } from './optionFields';
import { useOptionForm } from './useOptionForm';

interface Props {
  title: string;
  /** The form's name (control ids derive from it). */
  name: string;
  fields: readonly OptionField[];
  saveLabel: string;
  /** A line under the title saying what the card is for. */
  description?: ReactNode;
  failureMessage?: string;
}

/** A settings card whose fields are options saved together by one button (only the changed ones are written). */
export function OptionFormCard({ title, name, fields, saveLabel, description, failureMessage }: Props) {
  const { form, options, saving, submit, onFinishFailed, secretsSet } = useOptionForm(fields, failureMessage);
  return (
    <Card title={t(title)} style={{ marginBottom: 16 }}>
      {description && <Typography.Paragraph type="secondary">{typeof description === 'string' ? t(description) : description}</Typography.Paragraph>}
      <Form form={form} layout="vertical" name={name} onFinish={(v) => void submit(v)} onFinishFailed={onFinishFailed}>
        <OptionFields fields={fields} secretsSet={secretsSet} />
        <Button type="primary" htmlType="submit" loading={saving} disabled={!options}>
          {t(saveLabel)}
        </Button>
      </Form>
    </Card>
  );
}
