import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { groupApi } from '../api/group';
import { t } from '../lib/i18n';

/** All group names (admin), shared by every page that offers a group choice. */
export function useGroupNames() {
  return useQuery({ queryKey: ['group-names'], queryFn: groupApi.names });
}

/** A clearable, searchable single group choice for search forms (use inside a Form.Item). */
export function GroupSelect(props: { value?: string; onChange?: (v: string | undefined) => void; width?: number }) {
  const groups = useGroupNames();
  return (
    <Select
      allowClear
      showSearch
      placeholder={t('选择分组')}
      style={{ width: props.width ?? 180 }}
      loading={groups.isLoading}
      options={(groups.data ?? []).map((g) => ({ label: g, value: g }))}
      value={props.value}
      onChange={props.onChange}
    />
  );
}
