import type { MidjourneyDto, TaskDto } from '@switchyard/shared';
import { api, unwrap } from './client';

/** Filters of the drawing and async task lists (spec §7). channel_id is sent by admins only. */
export interface AsyncTaskQuery {
  /** A channel id, or '' for any. */
  channel_id?: number | '';
  /** The upstream task id (mj_id or task_id), exact; '' for any. */
  id: string;
  /** Unix seconds on submit_time; 0 = open. */
  start_timestamp: number;
  end_timestamp: number;
}

export interface AsyncTaskPageRequest {
  /** 0-based; a page shorter than page_size is the last (the lists carry no total). */
  p: number;
  page_size: number;
}

function list<T>(base: string, self: boolean, idParam: string, query: AsyncTaskQuery, page: AsyncTaskPageRequest) {
  const { id, ...rest } = query;
  return unwrap(api.get<T[]>(self ? `${base}/self/` : `${base}/`, { ...page, ...rest, [idParam]: id }));
}

export const asyncTaskApi = {
  /** GET /api/mj/ (admin, every user's drawings) or /api/mj/self/ (the caller's own). */
  drawings: (self: boolean, query: AsyncTaskQuery, page: AsyncTaskPageRequest) =>
    list<MidjourneyDto>('/api/mj', self, 'mj_id', query, page),
  /** GET /api/task/ (admin) or /api/task/self/ (the caller's own). */
  tasks: (self: boolean, query: AsyncTaskQuery, page: AsyncTaskPageRequest) => list<TaskDto>('/api/task', self, 'task_id', query, page),
};
