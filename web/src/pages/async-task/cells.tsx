import { Progress, Tag, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { t } from '../../lib/i18n';
import { stickyColor } from '../../lib/tagColor';
import { durationColor, elapsed, progressPercent, tagOf, type TagLook } from './view';

/** What the cells of the drawing and task tables can open. */
export interface AsyncTaskActions {
  copy(text: string): void;
  /** A dialog with the whole text (long prompts, fail reasons, a task's data). */
  showText(title: string, text: string, code?: boolean): void;
  /** The image viewer. */
  showImage(url: string): void;
}

function ValueTag({ look }: { look: TagLook }) {
  return <Tag color={look.color === 'default' ? undefined : look.color}>{t(look.label)}</Tag>;
}

/** How long the task took (spec §9: over 60 s red); '-' until it has finished. */
function DurationTag({ seconds }: { seconds: number | null }) {
  if (seconds === null) return '-';
  return <Tag color={durationColor(seconds)}>{t('{seconds} 秒', { seconds: seconds.toFixed(1) })}</Tag>;
}

/** The progress string as a bar (orange once the task failed), or as it is when it holds no number. */
function ProgressCell({ progress, failed }: { progress: string; failed: boolean }) {
  const percent = progressPercent(progress);
  if (percent === null) return progress;
  return (
    <Progress
      percent={percent}
      size="small"
      status="normal"
      strokeColor={failed ? '#fa8c16' : undefined}
      format={(p) => `${p ?? 0}%`}
      style={{ width: 120, marginBottom: 0 }}
    />
  );
}

/** The channel id in its sticky colour; a click copies it (admins only see this column). */
function ChannelTag({ id, copy }: { id: number; copy(text: string): void }) {
  if (id <= 0) return null;
  return (
    <Tag color={stickyColor(id)} style={{ cursor: 'pointer' }} onClick={() => copy(String(id))}>
      {id}
    </Tag>
  );
}

/** The channel column of the admin view. */
export function channelColumn<T extends { channel_id: number }>(copy: (text: string) => void): ColumnType<T> {
  return { title: t('渠道'), dataIndex: 'channel_id', key: 'channel_id', render: (v: number) => <ChannelTag id={v} copy={copy} /> };
}

/** A column showing its value as a tag from a value → tag table. */
export function tagColumn<T>(title: string, dataIndex: keyof T & string, tags: Readonly<Record<string, TagLook>>): ColumnType<T> {
  return { title, dataIndex, key: dataIndex, render: (v: string | number) => <ValueTag look={tagOf(tags, v)} /> };
}

/** How long a task took, from submit to finish; `unit` is how many of the rows' time units make a second. */
export function durationColumn<T extends { submit_time: number; finish_time: number }>(unit: number): ColumnType<T> {
  return {
    title: t('花费时间'),
    key: 'duration',
    render: (_: unknown, row) => {
      const span = elapsed(row.submit_time, row.finish_time);
      return <DurationTag seconds={span === null ? null : span / unit} />;
    },
  };
}

/** The progress column; `failed` is the status of a failed task. */
export function progressColumn<T extends { progress: string; status: string }>(failed: string): ColumnType<T> {
  return {
    title: t('进度'),
    dataIndex: 'progress',
    key: 'progress',
    render: (v: string, row) => <ProgressCell progress={v} failed={row.status === failed} />,
  };
}

/** The fail reason column: the reason cut short, whole in a dialog. */
export function failReasonColumn<T extends { fail_reason: string }>(show: AsyncTaskActions['showText']): ColumnType<T> {
  return {
    title: t('失败原因'),
    dataIndex: 'fail_reason',
    key: 'fail_reason',
    render: (v: string) => <LongText title={t('失败原因')} text={v} show={show} />,
  };
}

/** A long text cut to one line; a click opens it whole. '无' when there is none. */
export function LongText({ title, text, show }: { title: string; text: string; show: AsyncTaskActions['showText'] }) {
  if (!text) return t('无');
  return (
    <Typography.Text
      role="button"
      tabIndex={0}
      ellipsis
      style={{ maxWidth: 160, cursor: 'pointer' }}
      onClick={() => show(title, text)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') show(title, text);
      }}
    >
      {text}
    </Typography.Text>
  );
}
