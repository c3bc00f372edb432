import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { App, Card, Form } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type dayjs from 'dayjs';
import { isAdmin } from '@switchyard/shared';
import type { AsyncTaskPageRequest, AsyncTaskQuery } from '../../api/asyncTask';
import { useAuth } from '../../app/auth';
import { ImageViewer } from '../../components/ImageViewer';
import { SearchButton, TextFilter, TimeRangeFilter } from '../../components/ListFilters';
import { PagedTable } from '../../components/PagedTable';
import { useLazyList } from '../../components/useLazyList';
import type { ListSearch, PagedList } from '../../components/usePagedList';
import { useCopyText } from '../../components/useCopyText';
import { t } from '../../lib/i18n';
import type { AsyncTaskActions } from './cells';
import { asyncTaskQueryOf, type AsyncTaskFilterValues } from './view';

interface AsyncTaskListProps<T> {
  /** Names the filter form and the cached pages. */
  name: string;
  /** The default time window of the filters. */
  defaultWindow: () => [dayjs.Dayjs, dayjs.Dayjs | null];
  load: (self: boolean, query: AsyncTaskQuery, page: AsyncTaskPageRequest) => Promise<T[]>;
  columns: (admin: boolean, actions: AsyncTaskActions) => ColumnsType<T>;
  /** Shown above the filters. */
  children?: ReactNode;
}

/**
 * The frame of the drawing and async task pages: filters (channel id for admins, task id, time window), the lazily
 * paged table, the text dialog and the image viewer. Admins list every user's tasks; users their own.
 */
export function AsyncTaskList<T extends { id: number }>({ name, defaultWindow, load, columns, children }: AsyncTaskListProps<T>) {
  const { user } = useAuth();
  const admin = isAdmin(user?.role);
  const copy = useCopyText();
  const { modal } = App.useApp();
  const [form] = Form.useForm<AsyncTaskFilterValues>();
  const [initialValues] = useState<AsyncTaskFilterValues>(() => {
    const [start, end] = defaultWindow();
    return { channel_id: '', id: '', start, end };
  });
  const [search, setSearch] = useState<ListSearch<AsyncTaskQuery>>(() => ({ query: asyncTaskQueryOf(initialValues, admin), run: 0 }));
  // The lists carry no total (as the established console reads them): pages load lazily, one past the last kept.
  const lazy = useLazyList<T>({
    key: [name, admin, search.run, search.query],
    fetchPage: (p, size) => load(!admin, search.query, { p, page_size: size }),
    search: null,
  });
  const { setPage } = lazy;
  const list: PagedList<T> = { items: lazy.items, loading: lazy.loading, pagination: lazy.pagination, resetPage: () => setPage(1) };
  const [image, setImage] = useState<string | null>(null);

  const runSearch = useCallback(() => {
    setPage(1);
    setSearch((old) => ({ query: asyncTaskQueryOf(form.getFieldsValue(), admin), run: old.run + 1 }));
  }, [admin, form, setPage]);

  const actions: AsyncTaskActions = useMemo(
    () => ({
      copy: (text) => void copy(text),
      showImage: setImage,
      showText: (title, text, code) => {
        const style = { whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: '60vh', overflow: 'auto', margin: 0 } as const;
        modal.info({
          title,
          width: 800,
          icon: null,
          okText: t('关闭'),
          content: code ? <pre style={style}>{text}</pre> : <div style={style}>{text}</div>,
        });
      },
    }),
    [copy, modal],
  );
  const tableColumns = useMemo(() => columns(admin, actions), [columns, admin, actions]);

  return (
    <Card>
      {children}
      <Form form={form} name={name} layout="inline" initialValues={initialValues} onFinish={runSearch} style={{ marginBottom: 16, rowGap: 8 }}>
        {admin && <TextFilter name="channel_id" label={t('渠道 ID')} />}
        <TextFilter name="id" label={t('任务 ID')} />
        <TimeRangeFilter />
        <SearchButton loading={list.loading} />
      </Form>
      <PagedTable<T> list={list} columns={tableColumns} />
      <ImageViewer src={image} onClose={() => setImage(null)} />
    </Card>
  );
}
