import { createHmac } from 'node:crypto';

/*
 * iFlytek's WebSocket authentication: the handshake URL carries host, date (RFC 1123, GMT) and authorization in its
 * query. The signature is HMAC-SHA256 with the APISecret over "host: <host>\ndate: <date>\nGET <path> HTTP/1.1",
 * base64; authorization is the base64 of `api_key="…", algorithm="hmac-sha256", headers="host date request-line",
 * signature="…"`. The server allows 300 seconds of clock skew.
 */

export interface SignedParts {
  host: string;
  date: string;
  path: string;
}

/** The base64 HMAC-SHA256 signature of one handshake. */
export function sparkSignature(apiSecret: string, parts: SignedParts): string {
  const origin = `host: ${parts.host}\ndate: ${parts.date}\nGET ${parts.path} HTTP/1.1`;
  return createHmac('sha256', apiSecret).update(origin).digest('base64');
}

/** The authorization query value of one handshake. */
export function sparkAuthorization(apiKey: string, apiSecret: string, parts: SignedParts): string {
  const origin = `api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${sparkSignature(apiSecret, parts)}"`;
  return Buffer.from(origin, 'utf8').toString('base64');
}

/** The handshake URL of `endpoint` (ws:// or wss://, path included), signed at `now`. */
export function signedSparkUrl(endpoint: string, apiKey: string, apiSecret: string, now = new Date()): string {
  const url = new URL(endpoint);
  const parts: SignedParts = { host: url.host, date: now.toUTCString(), path: url.pathname };
  const query = new URLSearchParams({ authorization: sparkAuthorization(apiKey, apiSecret, parts), date: parts.date, host: parts.host });
  return `${url.protocol}//${url.host}${url.pathname}?${query.toString()}`;
}
