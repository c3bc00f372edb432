import type { LogPage, LogStat } from '@switchyard/shared';
import { api, unwrap } from './client';

/** Filters of the log list and stat calls (spec §7). username and channel are sent by admins only. */
export interface LogQuery {
  /** 0 = every type. */
  type: number;
  token_name: string;
  model_name: string;
  /** Unix seconds; 0 = open. */
  start_timestamp: number;
  end_timestamp: number;
  username?: string;
  /** A channel id, or '' for any. */
  channel?: number | '';
}

export interface LogPageRequest {
  /** 1-based. */
  p: number;
  page_size: number;
  /** next_cursor of the page before `p`: the server continues right after it instead of counting rows. */
  cursor?: string;
}

const base = (self: boolean) => (self ? '/api/log/self/' : '/api/log/');

export const logApi = {
  /** GET /api/log/ (admin, every user's logs) or /api/log/self/ (the caller's own). */
  list: (self: boolean, query: LogQuery, page: LogPageRequest) =>
    unwrap(api.get<LogPage>(base(self), { ...page, ...query })),
  /** GET /api/log/stat or /api/log/self/stat: quota of the filtered range, rpm and tpm of the last minute. */
  stat: (self: boolean, query: LogQuery) => unwrap(api.get<LogStat>(self ? '/api/log/self/stat' : '/api/log/stat', { ...query })),
  /** DELETE /api/log/?target_timestamp=: deletes the logs older than the time; resolves with the count. */
  clear: (targetTimestamp: number) => unwrap(api.delete<number>('/api/log/', { query: { target_timestamp: targetTimestamp } })),
  /** The LogConsumeEnabled option (super admin): whether relayed calls write consume logs. */
  consumeLogging: async () => {
    const options = await unwrap(api.get<Array<{ key: string; value: string }>>('/api/option/'));
    return options.find((o) => o.key === 'LogConsumeEnabled')?.value === 'true';
  },
  setConsumeLogging: (on: boolean) => unwrap(api.put('/api/option/', { key: 'LogConsumeEnabled', value: String(on) })),
};
