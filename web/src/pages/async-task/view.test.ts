import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { MJ_ACTION, MJ_STATUS, MJ_SUBMIT_CODE, TASK_ACTION, TASK_STATUS } from '@switchyard/shared';
import { DRAWING_ACTION_TAGS, DRAWING_STATUS_TAGS, SUBMIT_CODE_TAGS } from '../midjourney/drawingView';
import { PLATFORM_TAGS, TASK_ACTION_TAGS, TASK_STATUS_TAGS } from '../task/taskView';
import { UNKNOWN_TAG, asyncTaskQueryOf, drawingWindow, durationColor, elapsed, prettyJson, progressPercent, tagOf, taskWindow } from './view';

describe('drawing and task cells', () => {
  it('colours a duration over 60 s red and up to 60 s green (spec §9)', () => {
    expect(durationColor(60)).toBe('green');
    expect(durationColor(60.1)).toBe('red');
    expect(durationColor(0)).toBe('green');
  });
  it('has a duration only once the task has started and finished', () => {
    expect(elapsed(1_000, 62_500)).toBe(61_500);
    expect(elapsed(0, 62_500)).toBeNull();
    expect(elapsed(1_000, 0)).toBeNull();
    expect(elapsed(5_000, 1_000)).toBeNull();
  });
  it('reads progress strings as percents', () => {
    expect(progressPercent('45%')).toBe(45);
    expect(progressPercent('100%')).toBe(100);
    expect(progressPercent('')).toBe(0);
    expect(progressPercent('12.6')).toBe(13);
    expect(progressPercent('150%')).toBe(100);
    expect(progressPercent('queued')).toBeNull();
  });
  it('indents JSON and leaves other text alone', () => {
    expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson('not json')).toBe('not json');
    expect(prettyJson('  ')).toBe('');
  });
});

describe('tags', () => {
  it('labels every drawing action, submit code and status of spec §4', () => {
    for (const action of Object.values(MJ_ACTION)) expect(tagOf(DRAWING_ACTION_TAGS, action)).not.toBe(UNKNOWN_TAG);
    for (const code of Object.values(MJ_SUBMIT_CODE)) expect(tagOf(SUBMIT_CODE_TAGS, code)).not.toBe(UNKNOWN_TAG);
    for (const status of Object.values(MJ_STATUS)) expect(tagOf(DRAWING_STATUS_TAGS, status)).not.toBe(UNKNOWN_TAG);
    expect(tagOf(DRAWING_ACTION_TAGS, 'IMAGINE')).toEqual({ label: '绘图', color: 'blue' });
    expect(tagOf(DRAWING_STATUS_TAGS, 'MODAL').label).toBe('窗口等待');
    expect(tagOf(SUBMIT_CODE_TAGS, 22).label).toBe('重复提交');
  });
  it('labels every async task action and status, the empty status as still submitting', () => {
    for (const action of Object.values(TASK_ACTION)) expect(tagOf(TASK_ACTION_TAGS, action)).not.toBe(UNKNOWN_TAG);
    for (const status of Object.values(TASK_STATUS)) expect(tagOf(TASK_STATUS_TAGS, status).label).toBeTruthy();
    expect(tagOf(TASK_STATUS_TAGS, '').label).toBe('正在提交');
    expect(tagOf(TASK_STATUS_TAGS, 'QUEUED').label).toBe('排队中');
    expect(tagOf(TASK_STATUS_TAGS, 'MODAL')).toBe(UNKNOWN_TAG);
    expect(tagOf(PLATFORM_TAGS, 'suno').label).toBe('Suno');
  });
  it('shows values it does not know, and inherited object keys, as unknown', () => {
    expect(tagOf(DRAWING_ACTION_TAGS, 'VIDEO')).toBe(UNKNOWN_TAG);
    expect(tagOf(DRAWING_ACTION_TAGS, 'constructor')).toBe(UNKNOWN_TAG);
    expect(tagOf(SUBMIT_CODE_TAGS, 24)).toBe(UNKNOWN_TAG);
  });
});

describe('filters', () => {
  const now = dayjs('2026-03-15T10:20:30');
  it('defaults the drawing window to the last 30 days until one hour ahead (spec §9)', () => {
    const [start, end] = drawingWindow(now);
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-02-13 10:20:30');
    expect(end?.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-03-15 11:20:30');
  });
  it('defaults the task window to the start of today, open ended (spec §9)', () => {
    const [start, end] = taskWindow(now);
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-03-15 00:00:00');
    expect(end).toBeNull();
  });
  it('sends the channel for admins only, trimmed ids and unix seconds', () => {
    const values = { channel_id: ' 7 ', id: ' abc ', start: now, end: null };
    expect(asyncTaskQueryOf(values, true)).toEqual({ channel_id: 7, id: 'abc', start_timestamp: now.unix(), end_timestamp: 0 });
    expect(asyncTaskQueryOf(values, false)).toEqual({ id: 'abc', start_timestamp: now.unix(), end_timestamp: 0 });
    expect(asyncTaskQueryOf({ channel_id: 'x' }, true).channel_id).toBe('');
  });
});
