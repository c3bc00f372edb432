import type { OptionReader } from '../../../options/index.js';
import type { MidjourneyRow } from '../../../store/async-tasks.js';

/*
 * A stored drawing as midjourney-proxy reports a task (fetch, list-by-condition): what clients of the proxy read.
 * With MjForwardUrlEnabled the image is served through this gateway (GET /mj/image/{id}), so the upstream's address
 * stays private; while the drawing is unfinished its preview changes, so the address changes too (`?rand=`) to get
 * past caches.
 */

export interface TaskView {
  id: string;
  action: string;
  customId: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  status: string;
  progress: string;
  failReason: string;
  buttons: unknown[] | null;
  properties: Record<string, unknown> | null;
}

function parsed<T>(text: string, ok: (v: unknown) => boolean): T | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return ok(v) ? (v as T) : null;
  } catch {
    return null;
  }
}

export function imageUrlOf(row: Pick<MidjourneyRow, 'image_url' | 'mj_id' | 'status'>, options: OptionReader, now = Date.now()): string {
  if (!row.image_url || !options.get('MjForwardUrlEnabled')) return row.image_url;
  const server = options.get('ServerAddress').trim().replace(/\/+$/, '');
  const url = `${server}/mj/image/${encodeURIComponent(row.mj_id)}`;
  return row.status === 'SUCCESS' ? url : `${url}?rand=${now}`;
}

export function taskView(row: MidjourneyRow, options: OptionReader): TaskView {
  return {
    id: row.mj_id,
    action: row.action,
    customId: '',
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl: imageUrlOf(row, options),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parsed<unknown[]>(row.buttons, Array.isArray),
    properties: parsed<Record<string, unknown>>(row.properties, (v) => !!v && typeof v === 'object' && !Array.isArray(v)),
  };
}
