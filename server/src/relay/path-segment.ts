import { RelayError } from './errors.js';

/*
 * A value that comes from a request (a model name, a deployment, a task id, a mode) or from an upstream's answer (a
 * task id it made up) and becomes one segment of an upstream URL's path. Percent-encoding keeps `/`, `?`, `#` and `%`
 * inside the segment; but the URL parser still resolves a segment made only of dots (`.`, `..`) against the path
 * before it, so such a value — and an empty one, or one with control characters — is never sent at all. Every
 * upstream URL built from such a value goes through here.
 */

/** C0 controls and DEL: no name of anything an upstream serves holds them. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Whether the value can be sent as one path segment (once percent-encoded). */
export function isSafePathSegment(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !hasControl(value);
}

/** The gateway's refusal of a value that cannot be one segment of an upstream path. */
export function unsafePathSegment(value: string): RelayError {
  const shown = value.length > 64 ? `${value.slice(0, 64)}…` : value;
  return new RelayError(400, `请求中的 ${JSON.stringify(shown)} 不能作为上游地址的路径`, 'invalid_path_segment', 'invalid_request_error');
}

/**
 * The value percent-encoded as one path segment, or the 400 that refuses it. `keep` lists characters that are legal in
 * a segment and that the upstream expects as they are (Vertex's `@` of a model version).
 */
export function pathSegment(value: string, keep = ''): string {
  if (!isSafePathSegment(value)) throw unsafePathSegment(value);
  let out = encodeURIComponent(value);
  for (const c of keep) out = out.replaceAll(encodeURIComponent(c), c);
  return out;
}
