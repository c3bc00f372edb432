import { Progress, Tag, Typography } from 'antd';
import { t } from '../../lib/i18n';
import { stickyColor } from '../../lib/tagColor';
import { durationColor, progressPercent, type TagLook } from './view';

/** What the cells of the drawing and task tables can open. */
export interface AsyncTaskActions {
  copy(text: string): void;
  /** A dialog with the whole text (long prompts, fail reasons, a task's data). */
  showText(title: string, text: string, code?: boolean): void;
  /** The image viewer. */
  showImage(url: string): void;
}

export function ValueTag({ look }: { look: TagLook }) {
  return <Tag color={look.color === 'default' ? undefined : look.color}>{t(look.label)}</Tag>;
}

/** How long the task took (spec §9: over 60 s red); '-' until it has finished. */
export function DurationTag({ seconds }: { seconds: number | null }) {
  if (seconds === null) return '-';
  return <Tag color={durationColor(seconds)}>{t('{seconds} 秒', { seconds: seconds.toFixed(1) })}</Tag>;
}

/** The progress string as a bar (orange once the task failed), or as it is when it holds no number. */
export function ProgressCell({ progress, failed }: { progress: string; failed: boolean }) {
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
export function ChannelTag({ id, copy }: { id: number; copy(text: string): void }) {
  if (id <= 0) return null;
  return (
    <Tag color={stickyColor(id)} style={{ cursor: 'pointer' }} onClick={() => copy(String(id))}>
      {id}
    </Tag>
  );
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
