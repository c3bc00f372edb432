import { RelayError } from '../../errors.js';
import type { DashScopeImageRequest, DashScopeTaskAnswer } from './types.js';

/*
 * OpenAI's image generation request as a DashScope text-to-image task (wanx models), and the finished task as
 * OpenAI's images answer. Fields DashScope cannot honour are refused, never dropped; DashScope's own
 * (negative_prompt, seed, prompt_extend, watermark, a wanx style such as "<sketch>") pass through.
 */

/** What wanx makes in one task at most. */
const MAX_IMAGES = 4;

const refused = (message: string, param: string) => {
  const err = new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');
  err.param = param;
  return err;
};

/** A field that may only be absent or one of the values that mean what DashScope does anyway. */
function onlyDefault(req: Record<string, unknown>, field: string, allowed: readonly unknown[]): void {
  const v = req[field];
  if (v !== undefined && v !== null && !allowed.includes(v)) throw refused(`DashScope 图片生成不支持 ${field}=${JSON.stringify(v)}`, field);
}

export type ImageAnswerFormat = 'url' | 'b64_json';

/** The format the client wants the images in (OpenAI's response_format). */
export function imageAnswerFormat(req: Record<string, unknown>): ImageAnswerFormat {
  return req.response_format === 'b64_json' ? 'b64_json' : 'url';
}

export function imagesToDashScope(req: Record<string, unknown>, model: string): DashScopeImageRequest {
  if (typeof req.prompt !== 'string' || req.prompt === '') throw refused('prompt 不能为空', 'prompt');
  onlyDefault(req, 'response_format', ['url', 'b64_json']);
  onlyDefault(req, 'quality', ['standard', 'auto']);
  onlyDefault(req, 'background', ['auto']);
  onlyDefault(req, 'output_format', ['png']);
  onlyDefault(req, 'output_compression', []);
  onlyDefault(req, 'moderation', ['auto']);
  const out: DashScopeImageRequest = { model, input: { prompt: req.prompt }, parameters: {} };
  const n = req.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_IMAGES) throw refused(`DashScope 每次生成 1 到 ${MAX_IMAGES} 张图片`, 'n');
  out.parameters.n = n;
  const size = req.size;
  if (typeof size === 'string' && size !== 'auto') {
    const m = /^(\d+)x(\d+)$/.exec(size);
    if (!m) throw refused(`图片尺寸格式不正确：${size}（应为 宽x高，例如 1024x1024）`, 'size');
    out.parameters.size = `${m[1]}*${m[2]}`;
  }
  const style = req.style;
  if (typeof style === 'string') {
    // OpenAI's vivid / natural have no DashScope equivalent; wanx names its styles in angle brackets.
    if (!/^<[\w-]+>$/.test(style)) throw refused(`DashScope 不支持图片风格 ${style}`, 'style');
    out.parameters.style = style;
  }
  if (typeof req.negative_prompt === 'string' && req.negative_prompt) out.input.negative_prompt = req.negative_prompt;
  if (typeof req.seed === 'number' && Number.isInteger(req.seed)) out.parameters.seed = req.seed;
  if (typeof req.prompt_extend === 'boolean') out.parameters.prompt_extend = req.prompt_extend;
  if (typeof req.watermark === 'boolean') out.parameters.watermark = req.watermark;
  return out;
}

export interface ImagesAnswer {
  created: number;
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
}

/** A finished task as OpenAI's answer: the images made (results that failed carry no image and are left out). */
export function taskToImages(task: DashScopeTaskAnswer, format: ImageAnswerFormat, created = Math.floor(Date.now() / 1000)): ImagesAnswer {
  const data: ImagesAnswer['data'] = [];
  for (const r of task.output?.results ?? []) {
    const image = format === 'b64_json' ? r.b64_json : r.url;
    if (typeof image !== 'string' || image === '') continue;
    const item: ImagesAnswer['data'][number] = format === 'b64_json' ? { b64_json: image } : { url: image };
    if (typeof r.actual_prompt === 'string' && r.actual_prompt) item.revised_prompt = r.actual_prompt;
    data.push(item);
  }
  return { created, data };
}
