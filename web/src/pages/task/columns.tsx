import { Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { TASK_STATUS, type TaskDto } from '@switchyard/shared';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { channelColumn, durationColumn, failReasonColumn, progressColumn, tagColumn, type AsyncTaskActions } from '../async-task/cells';
import { prettyJson } from '../async-task/view';
import { PLATFORM_TAGS, TASK_ACTION_TAGS, TASK_STATUS_TAGS } from './taskView';

const time = (v: number) => (v ? formatUnixTime(v) : '-');

/** The async task table (spec: async task fields); times are unix seconds. Admins also see the channel. */
export function taskColumns(admin: boolean, actions: AsyncTaskActions): ColumnsType<TaskDto> {
  const columns: ColumnsType<TaskDto> = [
    { title: t('提交时间'), dataIndex: 'submit_time', key: 'submit_time', render: time },
    { title: t('结束时间'), dataIndex: 'finish_time', key: 'finish_time', render: time },
    durationColumn(1),
  ];
  if (admin) columns.push(channelColumn(actions.copy));
  columns.push(
    tagColumn(t('平台'), 'platform', PLATFORM_TAGS),
    tagColumn(t('类型'), 'action', TASK_ACTION_TAGS),
    {
      title: t('任务ID（点击查看详情）'),
      dataIndex: 'task_id',
      key: 'task_id',
      // The detail dialog: the upstream's raw answer about the task.
      render: (v: string, row) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => actions.showText(t('任务详情'), prettyJson(row.data) || t('无'), true)}>
          {v || '-'}
        </Button>
      ),
    },
    tagColumn(t('任务状态'), 'status', TASK_STATUS_TAGS),
    progressColumn(TASK_STATUS.FAILURE),
    failReasonColumn(actions.showText),
  );
  return columns;
}
