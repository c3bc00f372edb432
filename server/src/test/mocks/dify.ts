import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { type CaseFolder, DEFAULT_CASE, type FixtureCase, type FixtureServer, type MockRequest, findCase, loadCaseFolder, sendBody, sendStream, startFixtureServer } from './fixture-cases.js';
import { serveMock } from './local-server.js';

/*
 * A local Dify service API (channel type 37) answering from the fixture files in
 * relay/providers/dify/fixtures/<route>/<case>.
 *
 * As on Dify, an API key names one app: the stand-in knows one key per fixture case, `app-<case>` (app-default,
 * app-no-usage, app-cut, app-stream-error, app-quota-exceeded ...); any other key answers 401 unauthorized. The case
 * therefore comes from the key, since Dify's request carries no model name (errors/unauthorized answers the rest).
 *
 * POST /v1/chat-messages checks what Dify checks (inputs an object, query and user non-empty strings, response_mode
 * streaming or blocking, each file a known upload of this app or a remote URL) and answers the case's JSON, or its
 * SSE events when streaming (cut: the connection drops after the last event).
 * POST /v1/files/upload reads the multipart form (file + user), refuses anything but an image (415, from
 * files-upload/unsupported-type) and remembers
 * the file for the app; `uploads` lists them.
 */

export interface DifyUpload {
  id: string;
  key: string;
  user: string;
  name: string;
  mime: string;
  bytes: Buffer;
}

export interface DifyMock extends FixtureServer {
  /** The key of the app answering `name`'s case. */
  keyFor(name: string): string;
  uploads: DifyUpload[];
}

const FIXTURES = new URL('../../relay/providers/dify/fixtures/', import.meta.url);
const JSON_HEADERS = { 'content-type': 'application/json' };
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };
const KEY_PREFIX = 'app-';

const error = (res: http.ServerResponse, rec: MockRequest, status: number, code: string, message: string) =>
  sendBody(res, rec, status, JSON_HEADERS, JSON.stringify({ code, message, status }));

function chatProblem(json: Record<string, unknown> | null, key: string, uploads: DifyUpload[]): string | null {
  if (!json) return 'Invalid JSON';
  if (!json.inputs || typeof json.inputs !== 'object' || Array.isArray(json.inputs)) return 'inputs is required in input form';
  if (typeof json.query !== 'string' || json.query.trim() === '') return 'query is required';
  if (typeof json.user !== 'string' || json.user === '') return 'user is required';
  if (json.response_mode !== 'streaming' && json.response_mode !== 'blocking') return 'response_mode must be streaming or blocking';
  if (json.files !== undefined && !Array.isArray(json.files)) return 'files must be a list';
  for (const f of (json.files as Array<Record<string, unknown>> | undefined) ?? []) {
    if (f.type !== 'image') return 'file type must be image';
    if (f.transfer_method === 'local_file') {
      if (!uploads.some((u) => u.id === f.upload_file_id && u.key === key)) return 'Invalid upload file id.';
    } else if (f.transfer_method === 'remote_url') {
      if (typeof f.url !== 'string' || !/^https?:\/\//.test(f.url)) return 'Invalid file url.';
    } else return 'transfer_method must be remote_url or local_file';
  }
  return null;
}

async function upload(mock: DifyMock, folders: Folders, key: string, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  let form: FormData;
  try {
    form = await new Response(rec.body, { headers: { 'content-type': String(rec.headers['content-type'] ?? '') } }).formData();
  } catch {
    return error(res, rec, 400, 'no_file_uploaded', 'Please upload your file.');
  }
  const file = form.get('file');
  const user = form.get('user');
  if (!(file instanceof Blob)) return error(res, rec, 400, 'no_file_uploaded', 'Please upload your file.');
  if (typeof user !== 'string' || user === '') return error(res, rec, 400, 'invalid_param', 'user is required');
  if (!file.type.startsWith('image/')) return answer(res, rec, folders.upload.get('unsupported-type')!);
  const name = (file as File).name ?? 'upload';
  const entry: DifyUpload = { id: randomUUID(), key, user, name, mime: file.type, bytes: Buffer.from(await file.arrayBuffer()) };
  mock.uploads.push(entry);
  const body = { id: entry.id, name, size: entry.bytes.length, extension: name.split('.').pop(), mime_type: file.type, created_by: randomUUID(), created_at: 1705407629 };
  return sendBody(res, rec, 201, JSON_HEADERS, JSON.stringify(body));
}

async function handle(mock: DifyMock, folders: Folders, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  const auth = /^Bearer (.+)$/.exec(String(rec.headers.authorization ?? ''));
  const key = auth?.[1] ?? '';
  const name = key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : '';
  const c = name ? findCase(name, [folders.chat]) : undefined;
  if (!c) return answer(res, rec, folders.errors.get('unauthorized')!);
  if (rec.method !== 'POST') return error(res, rec, 405, 'method_not_allowed', 'The method is not allowed for the requested URL.');
  if (rec.path === '/v1/files/upload') return upload(mock, folders, key, rec, res);
  if (rec.path !== '/v1/chat-messages') return error(res, rec, 404, 'not_found', 'The requested URL was not found on the server.');
  const problem = chatProblem(rec.json, key, mock.uploads);
  if (problem) return error(res, rec, 400, 'invalid_param', problem);
  rec.case = c.name;
  if (rec.json!.response_mode === 'streaming' && c.events) {
    return sendStream(res, rec, SSE_HEADERS, c.events.map((e) => `${e}\n\n`), { cut: c.answer?.cut === true, delayMs: 1 });
  }
  return answer(res, rec, c);
}

/** A case's JSON answer (half of it, then a dropped connection, when the case is cut). */
function answer(res: http.ServerResponse, rec: MockRequest, c: FixtureCase): Promise<void> {
  const a = c.answer!;
  return sendBody(res, rec, a.status, { ...JSON_HEADERS, ...a.headers }, a.raw ?? JSON.stringify(a.body), a.cut);
}

interface Folders {
  chat: CaseFolder;
  upload: CaseFolder;
  errors: CaseFolder;
}

export async function startDifyMock(): Promise<DifyMock> {
  const load = (route: string) => loadCaseFolder(new URL(`${route}/`, FIXTURES));
  const folders: Folders = { chat: load('chat-messages'), upload: load('files-upload'), errors: load('errors') };
  return serveMock<DifyMock>({ keyFor: (name: string) => `${KEY_PREFIX}${name || DEFAULT_CASE}`, uploads: [] }, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
