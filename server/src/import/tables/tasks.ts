import { recordedAmount } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, int, text } from '../values.js';

export function tasksImport(): TableImport<'tasks'> {
  return {
    source: 'tasks',
    target: 'tasks',
    reads: [
      'id', 'created_at', 'updated_at', 'task_id', 'platform', 'user_id', 'channel_id', 'quota', 'action', 'status', 'fail_reason',
      'submit_time', 'start_time', 'finish_time', 'progress', 'properties', 'data',
    ],
    map(row, ctx) {
      return {
        id: int(row.id),
        created_at: int(row.created_at),
        updated_at: int(row.updated_at),
        task_id: clip(text(row.task_id), 191),
        platform: clip(text(row.platform), 30),
        user_id: int(row.user_id),
        channel_id: int(row.channel_id),
        quota: recordedAmount(row.quota, 'quota', ctx),
        action: clip(text(row.action), 40),
        status: clip(text(row.status), 20),
        fail_reason: text(row.fail_reason),
        submit_time: int(row.submit_time),
        start_time: int(row.start_time),
        finish_time: int(row.finish_time),
        progress: clip(text(row.progress), 20),
        // JSON columns: MySQL and PostgreSQL hand them back parsed, SQLite as text; text() writes both as JSON text.
        properties: text(row.properties),
        data: text(row.data),
        token_id: 0,
        token_quota: 0,
      };
    },
  };
}
