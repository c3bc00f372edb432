import { TASK_ACTION, TASK_PLATFORM, TASK_STATUS } from '@switchyard/shared';
import { COMMON_STATUS_TAGS, type TagLook } from '../async-task/view';

/** Async task actions (spec §4). */
export const TASK_ACTION_TAGS: Record<string, TagLook> = {
  [TASK_ACTION.MUSIC]: { label: '生成音乐', color: 'default' },
  [TASK_ACTION.LYRICS]: { label: '生成歌词', color: 'pink' },
};

/** Async task states: the common ones plus QUEUED, UNKNOWN and '' (the submit has not come back yet). */
export const TASK_STATUS_TAGS: Record<string, TagLook> = {
  ...COMMON_STATUS_TAGS,
  [TASK_STATUS.QUEUED]: { label: '排队中', color: 'orange' },
  [TASK_STATUS.UNKNOWN]: { label: '未知', color: 'default' },
  [TASK_STATUS.SUBMITTING]: { label: '正在提交', color: 'default' },
};

/** Platforms by their stored name; the label is a brand, not translated. */
export const PLATFORM_TAGS: Record<string, TagLook> = {
  [TASK_PLATFORM.SUNO]: { label: 'Suno', color: 'green' },
};
