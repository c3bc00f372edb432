import { recordedAmount } from '../hostile-values.js';
import type { TableImport } from '../table-import.js';
import { clip, int, text } from '../values.js';

export function midjourneysImport(): TableImport<'midjourneys'> {
  return {
    source: 'midjourneys',
    target: 'midjourneys',
    reads: [
      'id', 'code', 'user_id', 'action', 'mj_id', 'prompt', 'prompt_en', 'description', 'state', 'submit_time', 'start_time',
      'finish_time', 'image_url', 'status', 'progress', 'fail_reason', 'channel_id', 'quota', 'buttons', 'properties',
    ],
    map(row, ctx) {
      return {
        id: int(row.id),
        code: int(row.code),
        user_id: int(row.user_id),
        action: clip(text(row.action), 40),
        mj_id: clip(text(row.mj_id), 191),
        prompt: text(row.prompt),
        prompt_en: text(row.prompt_en),
        description: text(row.description),
        state: text(row.state),
        submit_time: int(row.submit_time),
        start_time: int(row.start_time),
        finish_time: int(row.finish_time),
        image_url: text(row.image_url),
        status: clip(text(row.status), 20),
        progress: clip(text(row.progress), 30),
        fail_reason: text(row.fail_reason),
        channel_id: int(row.channel_id),
        quota: recordedAmount(row.quota, 'quota', ctx),
        buttons: text(row.buttons),
        properties: text(row.properties),
        // The incumbent does not record the token charged: refunds go to the user only (009_task_money).
        token_id: 0,
        token_quota: 0,
      };
    },
  };
}
