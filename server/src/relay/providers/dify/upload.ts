import { FormData, request } from 'undici';
import { RelayError } from '../../errors.js';
import { difyErrorOf } from './errors.js';
import type { DifyFile, DifyRequest, PendingUpload } from './types.js';

/*
 * Images sent inline (data: URLs) reach Dify as uploaded files: POST {base}/v1/files/upload (multipart: file, user)
 * answers the file's id, which the message then names as a local_file. Uploads run before the chat call, one per
 * image, in order.
 */

const TIMEOUT_MS = 60_000;

const isPending = (f: DifyFile | PendingUpload): f is PendingUpload => 'upload' in f;

/** The bytes and MIME type of a base64 data: URL. */
export function decodeDataUrl(url: string): { mime: string; bytes: Buffer } {
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
  if (!m || !m[2]) throw new RelayError(400, '图片 data: URL 必须是 base64 编码', 'invalid_image', 'invalid_request_error');
  return { mime: m[1] || 'image/jpeg', bytes: Buffer.from(m[3], 'base64') };
}

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/jpg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

/** A refused upload: the client's image when Dify says so (too large, wrong type), else the channel's failure. */
function uploadRefused(status: number, text: string): RelayError {
  const e = difyErrorOf(text);
  const detail = e?.message ? `：${e.message}` : `（HTTP ${status}）`;
  if (status === 400 || status === 413 || status === 415) return new RelayError(400, `Dify 拒绝了上传的图片${detail}`, e?.code || 'dify_upload_refused', 'invalid_request_error');
  const err = new RelayError(502, `Dify 上传图片失败${detail}`, e?.code || 'dify_upload_failed', undefined, false);
  if (status === 401) err.credentialsRefused = true;
  return err;
}

export async function uploadImage(base: string, key: string, user: string, dataUrl: string, index: number): Promise<string> {
  const { mime, bytes } = decodeDataUrl(dataUrl);
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: mime }), `image-${index + 1}.${EXTENSION[mime] ?? 'png'}`);
  form.append('user', user);
  let status: number;
  let text: string;
  try {
    const res = await request(`${base}/v1/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch {
    throw new RelayError(502, 'Dify 上传图片失败：无法连接上游', 'dify_upload_failed', undefined, false);
  }
  if (status < 200 || status >= 300) throw uploadRefused(status, text);
  const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') throw new RelayError(502, 'Dify 上传图片的回答中没有文件 id', 'dify_upload_failed', undefined, false);
  return id;
}

/** The body with every pending image uploaded and named by its file id. */
export async function withUploadedFiles(body: DifyRequest, base: string, key: string): Promise<DifyRequest> {
  if (!body.files?.some(isPending)) return body;
  const files: DifyFile[] = [];
  for (const [i, f] of body.files.entries()) {
    files.push(isPending(f) ? { type: 'image', transfer_method: 'local_file', upload_file_id: await uploadImage(base, key, body.user, f.upload, i) } : f);
  }
  return { ...body, files };
}
