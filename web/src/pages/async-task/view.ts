import dayjs from 'dayjs';
import type { AsyncTaskQuery } from '../../api/asyncTask';

/** A tag of a value column: the label (a translation key) and an antd colour. */
export interface TagLook {
  label: string;
  color: string;
}

/** How long a task ran, in the unit of its times, or null when it has not finished (or never started). */
export function elapsed(start: number, finish: number): number | null {
  if (!start || !finish || finish < start) return null;
  return finish - start;
}

/** Spec §9: a task that took over 60 s is red, otherwise green. */
export const durationColor = (seconds: number): 'red' | 'green' => (seconds > 60 ? 'red' : 'green');

/** A progress string ("45%", "100%", "") as a whole percent in 0..100; null when it holds no number. */
export function progressPercent(progress: string): number | null {
  const text = progress.trim().replace(/%$/, '');
  if (text === '') return 0;
  const n = Number(text);
  if (!Number.isFinite(n)) return null;
  return Math.min(100, Math.max(0, Math.round(n)));
}

/** JSON text indented for reading; anything else as it is. */
export function prettyJson(text: string): string {
  if (!text.trim()) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Spec §9: the drawing window is the last 30 days to one hour ahead. */
export function drawingWindow(now: dayjs.Dayjs = dayjs()): [dayjs.Dayjs, dayjs.Dayjs | null] {
  return [now.subtract(30, 'day'), now.add(1, 'hour')];
}

/** Spec §9: async tasks start from the start of today, with no end. */
export function taskWindow(now: dayjs.Dayjs = dayjs()): [dayjs.Dayjs, dayjs.Dayjs | null] {
  return [now.startOf('day'), null];
}

/** What the filter form holds. */
export interface AsyncTaskFilterValues {
  channel_id?: string;
  id?: string;
  start?: dayjs.Dayjs | null;
  end?: dayjs.Dayjs | null;
}

/** The list query from the form; only admins send a channel. */
export function asyncTaskQueryOf(values: AsyncTaskFilterValues, admin: boolean): AsyncTaskQuery {
  const query: AsyncTaskQuery = {
    id: (values.id ?? '').trim(),
    start_timestamp: values.start ? values.start.unix() : 0,
    end_timestamp: values.end ? values.end.unix() : 0,
  };
  if (admin) {
    const channel = Number.parseInt((values.channel_id ?? '').trim(), 10);
    query.channel_id = Number.isInteger(channel) && channel > 0 ? channel : '';
  }
  return query;
}

/** The states drawings and async tasks share (spec §4), as the established console labels and colours them. */
export const COMMON_STATUS_TAGS: Record<string, TagLook> = {
  SUCCESS: { label: '成功', color: 'green' },
  NOT_START: { label: '未启动', color: 'default' },
  SUBMITTED: { label: '队列中', color: 'yellow' },
  IN_PROGRESS: { label: '执行中', color: 'blue' },
  FAILURE: { label: '失败', color: 'red' },
};

export const UNKNOWN_TAG: TagLook = { label: '未知', color: 'default' };

/** The tag of a value, or the unknown tag for a value the table does not know. */
export const tagOf = (tags: Readonly<Record<string, TagLook>>, value: string | number): TagLook =>
  Object.hasOwn(tags, value) ? tags[value] : UNKNOWN_TAG;
