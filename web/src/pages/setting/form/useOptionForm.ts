import { useCallback, useState } from 'react';
import { Form, type FormInstance } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { optionApi } from '../../../api/option';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { notifyFirstError, useFormSync, useOptionSettings } from '../operation/useOptionSettings';
import { fieldValues, optionsToSave, type FormValues, type OptionField } from './optionFields';

export const SECRET_STATUS_QUERY_KEY = ['option-secret-status'] as const;

export interface OptionForm {
  form: FormInstance<FormValues>;
  /** The stored options (undefined until loaded). */
  options: Record<string, string> | undefined;
  saving: boolean;
  submit(values: FormValues): Promise<void>;
  onFinishFailed(info: { errorFields: Array<{ errors: string[] }> }): void;
  /** Which secrets hold a value (only fetched when the form has a secret field). */
  secretsSet: Record<string, boolean>;
  /** Takes these fields from the stored options again, dropping what was typed in them. */
  reset(keys: string[], options: Record<string, string>): void;
}

/**
 * A settings card's form over a list of option fields: loads the stored values, keeps them in step without
 * clobbering typing, and saves only what changed. `failureMessage` replaces the first field error as the toast of
 * a refused submit (the ratio and chat cards say 请检查输入 while each field shows its own error).
 */
export function useOptionForm(fields: readonly OptionField[], failureMessage?: string): OptionForm {
  const { options, save } = useOptionSettings();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const hasSecrets = fields.some((f) => f.kind === 'secret');
  const secretStatus = useQuery({ queryKey: SECRET_STATUS_QUERY_KEY, queryFn: optionApi.secretStatus, enabled: hasSecrets });

  const derive = useCallback((o: Record<string, string>) => fieldValues(fields, o), [fields]);
  const { markSaved } = useFormSync(form, options, derive);

  const submit = async (values: FormValues) => {
    if (!options) return;
    const next = optionsToSave(fields, values, options);
    setSaving(true);
    try {
      const ok = await save(next);
      if (ok) markSaved(fieldValues(fields, { ...options, ...next }));
      if (hasSecrets) await queryClient.invalidateQueries({ queryKey: SECRET_STATUS_QUERY_KEY });
    } finally {
      setSaving(false);
    }
  };

  const onFinishFailed = failureMessage ? () => notify.error(t(failureMessage)) : notifyFirstError;

  const reset = (keys: string[], stored: Record<string, string>) =>
    markSaved(fieldValues(fields.filter((f) => keys.includes(f.key)), stored));

  return { form, options, saving, submit, onFinishFailed, secretsSet: secretStatus.data ?? {}, reset };
}
