import { Select, type SelectProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { groupApi } from '../api/group';
import { t } from '../lib/i18n';

/** All group names (admin), shared by every page that offers a group choice. */
export function useGroupNames() {
  return useQuery({ queryKey: ['group-names'], queryFn: groupApi.names });
}

/**
 * A clearable, searchable single group choice for search forms. Use inside a Form.Item: the props it injects (id,
 * value, onChange) pass through, so the label stays attached to the input.
 */
export function GroupSelect({ width = 180, ...rest }: SelectProps<string> & { width?: number }) {
  const groups = useGroupNames();
  return (
    <Select<string>
      allowClear
      showSearch
      placeholder={t('选择分组')}
      style={{ width }}
      loading={groups.isLoading}
      options={(groups.data ?? []).map((g) => ({ label: g, value: g }))}
      {...rest}
    />
  );
}
