import type { ColumnsType } from 'antd/es/table';
import { MJ_STATUS, type MidjourneyDto } from '@switchyard/shared';
import { Button } from 'antd';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { ChannelTag, DurationTag, LongText, ProgressCell, ValueTag, type AsyncTaskActions } from '../async-task/cells';
import { elapsed, tagOf } from '../async-task/view';
import { DRAWING_ACTION_TAGS, DRAWING_STATUS_TAGS, SUBMIT_CODE_TAGS } from './drawingView';

/** The drawing table (spec: drawing task fields); times are the proxy's milliseconds. Admins also see the channel. */
export function drawingColumns(admin: boolean, actions: AsyncTaskActions): ColumnsType<MidjourneyDto> {
  const longText = (title: string) => (text: string) => <LongText title={title} text={text} show={actions.showText} />;
  const columns: ColumnsType<MidjourneyDto> = [
    {
      title: t('提交时间'),
      dataIndex: 'submit_time',
      key: 'submit_time',
      render: (v: number) => (v ? formatUnixTime(Math.floor(v / 1000)) : '-'),
    },
    {
      title: t('花费时间'),
      key: 'duration',
      render: (_: unknown, row) => <DurationTag seconds={inSeconds(elapsed(row.submit_time, row.finish_time))} />,
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
    { title: t('类型'), dataIndex: 'action', key: 'action', render: (v: string) => <ValueTag look={tagOf(DRAWING_ACTION_TAGS, v)} /> },
    { title: t('任务ID'), dataIndex: 'mj_id', key: 'mj_id' },
    { title: t('提交结果'), dataIndex: 'code', key: 'code', render: (v: number) => <ValueTag look={tagOf(SUBMIT_CODE_TAGS, v)} /> },
    { title: t('任务状态'), dataIndex: 'status', key: 'status', render: (v: string) => <ValueTag look={tagOf(DRAWING_STATUS_TAGS, v)} /> },
    {
      title: t('进度'),
      dataIndex: 'progress',
      key: 'progress',
      render: (v: string, row) => <ProgressCell progress={v} failed={row.status === MJ_STATUS.FAILURE} />,
    },
    {
      title: t('结果图片'),
      dataIndex: 'image_url',
      key: 'image_url',
      render: (v: string) => (v ? <Button onClick={() => actions.showImage(v)}>{t('查看图片')}</Button> : t('无')),
    },
    { title: 'Prompt', dataIndex: 'prompt', key: 'prompt', render: longText('Prompt') },
    { title: 'PromptEn', dataIndex: 'prompt_en', key: 'prompt_en', render: longText('PromptEn') },
    { title: t('失败原因'), dataIndex: 'fail_reason', key: 'fail_reason', render: longText(t('失败原因')) },
  );
  return columns;
}

const inSeconds = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
