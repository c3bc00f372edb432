import { Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { MJ_STATUS, type MidjourneyDto } from '@switchyard/shared';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import {
  channelColumn,
  durationColumn,
  failReasonColumn,
  LongText,
  progressColumn,
  tagColumn,
  type AsyncTaskActions,
} from '../async-task/cells';
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
    durationColumn(1000),
  ];
  if (admin) columns.push(channelColumn(actions.copy));
  columns.push(
    tagColumn(t('类型'), 'action', DRAWING_ACTION_TAGS),
    { title: t('任务ID'), dataIndex: 'mj_id', key: 'mj_id' },
    tagColumn(t('提交结果'), 'code', SUBMIT_CODE_TAGS),
    tagColumn(t('任务状态'), 'status', DRAWING_STATUS_TAGS),
    progressColumn(MJ_STATUS.FAILURE),
    {
      title: t('结果图片'),
      dataIndex: 'image_url',
      key: 'image_url',
      render: (v: string) => (v ? <Button onClick={() => actions.showImage(v)}>{t('查看图片')}</Button> : t('无')),
    },
    { title: 'Prompt', dataIndex: 'prompt', key: 'prompt', render: longText('Prompt') },
    { title: 'PromptEn', dataIndex: 'prompt_en', key: 'prompt_en', render: longText('PromptEn') },
    failReasonColumn(actions.showText),
  );
  return columns;
}
