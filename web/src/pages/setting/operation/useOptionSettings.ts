import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { optionApi } from '../../../api/option';
import { useStatus } from '../../../app/status';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';

/** One query of GET /api/option/ shared by every settings card. */
export const OPTIONS_QUERY_KEY = ['options'] as const;

export interface OptionSettings {
  /** The stored values as strings; undefined until loaded. Secrets are never in here. */
  options: Record<string, string> | undefined;
  /** Writes the keys of `next` whose value differs from the stored one, then reloads options and status. */
  save(next: Record<string, string>): Promise<boolean>;
}

/**
 * The stored options and a save that sends only what changed (spec §5 system settings): nothing changed warns
 * 你似乎并没有修改什么; then 保存成功, 部分保存失败，请重试 or 保存失败，请重试 (each refusal also shows the server's
 * reason). Afterwards the status record is fetched again, so the sidebar and the wallet follow at once.
 */
export function useOptionSettings(): OptionSettings {
  const queryClient = useQueryClient();
  const { reload } = useStatus();
  const query = useQuery({ queryKey: OPTIONS_QUERY_KEY, queryFn: optionApi.list });

  const save = async (next: Record<string, string>): Promise<boolean> => {
    const current = query.data ?? {};
    const changed = Object.fromEntries(Object.entries(next).filter(([key, value]) => current[key] !== value));
    if (Object.keys(changed).length === 0) {
      notify.warning(t('你似乎并没有修改什么'));
      return false;
    }
    const { saved, failed } = await optionApi.save(changed);
    if (failed.length === 0) notify.success(t('保存成功'));
    else if (saved.length > 0) notify.error(t('部分保存失败，请重试'));
    else notify.error(t('保存失败，请重试'));
    if (saved.length > 0) {
      await queryClient.invalidateQueries({ queryKey: OPTIONS_QUERY_KEY });
      void reload();
    }
    return failed.length === 0;
  };

  return { options: query.data, save };
}

/** The first validation message of a failed antd form submit, shown as a toast too. */
export function notifyFirstError(info: { errorFields: Array<{ errors: string[] }> }): void {
  const first = info.errorFields.find((f) => f.errors.length > 0)?.errors[0];
  if (first) notify.error(first);
}

/**
 * Keeps a card's form in step with the stored options without losing what the operator is typing: a field is
 * refreshed only while it still shows the value last taken from the server, so saving one card (which reloads the
 * options) leaves unsaved edits in the other cards alone. `markSaved` tells it the card's own values are now stored.
 */
export function useFormSync<V extends object>(
  form: FormInstance<V>,
  options: Record<string, string> | undefined,
  derive: (options: Record<string, string>) => V,
): { markSaved(values: Partial<V>): void } {
  const applied = useRef<Partial<V> | null>(null);
  useEffect(() => {
    if (!options) return;
    const next = derive(options);
    const previous = applied.current;
    const current = form.getFieldsValue(true) as Partial<V>;
    const patch: Partial<V> = {};
    for (const key of Object.keys(next) as Array<keyof V & string>) {
      if (previous === null || current[key] === previous[key]) patch[key] = next[key];
    }
    form.setFieldsValue(patch as Parameters<FormInstance<V>['setFieldsValue']>[0]);
    applied.current = next;
  }, [options, form, derive]);
  return {
    markSaved: (values) => {
      form.setFieldsValue(values as Parameters<FormInstance<V>['setFieldsValue']>[0]);
      applied.current = { ...applied.current, ...values };
    },
  };
}
