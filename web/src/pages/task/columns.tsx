import { Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { TASK_STATUS, type TaskDto } from '@switchyard/shared';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { ChannelTag, DurationTag, LongText, ProgressCell, ValueTag, type AsyncTaskActions } from '../async-task/cells';
import { elapsed, prettyJson, tagOf } from '../async-task/view';
import { PLATFORM_TAGS, TASK_ACTION_TAGS, TASK_STATUS_TAGS } from './taskView';

const time = (v: number) => (v ? formatUnixTime(v) : '-');

/** The async task table (spec: async task fields); times are unix seconds. Admins also see the channel. */
export function taskColumns(admin: boolean, actions: AsyncTaskActions): ColumnsType<TaskDto> {
  const columns: ColumnsType<TaskDto> = [
    { title: t('提交时间'), dataIndex: 'submit_time', key: 'submit_time', render: time },
    { title: t('结束时间'), dataIndex: 'finish_time', key: 'finish_time', render: time },
    {
      title: t('花费时间'),
      key: 'duration',
      render: (_: unknown, row) => <DurationTag seconds={elapsed(row.submit_time, row.finish_time)} />,
    },
  ];
  if (admin) {
    columns.push({
      title: t('渠道'),
      dataIndex: 'channel_id',
      key: 'channel_id',
      render: (v: number) => <ChannelTag id={v} copy={actions.copy} />,
    });
  }
  columns.push(
    { title: t('平台'), dataIndex: 'platform', key: 'platform', render: (v: string) => <ValueTag look={tagOf(PLATFORM_TAGS, v)} /> },
    { title: t('类型'), dataIndex: 'action', key: 'action', render: (v: string) => <ValueTag look={tagOf(TASK_ACTION_TAGS, v)} /> },
    {
      title: t('任务ID（点击查看详情）'),
      dataIndex: 'task_id',
      key: 'task_id',
      render: (v: string, row) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => actions.showText(t('任务详情'), prettyJson(row.data) || t('无'), true)}>
          {v || '-'}
        </Button>
      ),
    },
    { title: t('任务状态'), dataIndex: 'status', key: 'status', render: (v: string) => <ValueTag look={tagOf(TASK_STATUS_TAGS, v)} /> },
    {
      title: t('进度'),
      dataIndex: 'progress',
      key: 'progress',
      render: (v: string, row) => <ProgressCell progress={v} failed={row.status === TASK_STATUS.FAILURE} />,
    },
    {
      title: t('失败原因'),
      dataIndex: 'fail_reason',
      key: 'fail_reason',
      render: (v: string) => <LongText title={t('失败原因')} text={v} show={actions.showText} />,
    },
  );
  return columns;
}
