import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { PagedList } from './usePagedList';

/** The table of a server-paged list (log, drawings, tasks): one row per id, scrolling sideways when wide. */
export function PagedTable<T extends { id: number }>({ list, columns }: { list: PagedList<T>; columns: ColumnsType<T> }) {
  return (
    <Table<T>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={list.items}
      loading={list.loading}
      pagination={list.pagination}
      scroll={{ x: 'max-content' }}
    />
  );
}
