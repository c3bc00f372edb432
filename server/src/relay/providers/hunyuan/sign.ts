import { createHash, createHmac } from 'node:crypto';

/*
 * Tencent Cloud's signature v3 (TC3-HMAC-SHA256) for a POST with a JSON body: a canonical request over the signed
 * headers and the body's hash, a string to sign scoped to the UTC date and the service, and a key derived from the
 * secret through the date, the service and "tc3_request".
 */

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  service: string;
  /** Host as sent (with the port when not the default). */
  host: string;
  contentType: string;
  /** Unix seconds, the X-TC-Timestamp header. */
  timestamp: number;
  payload: string;
  /** Extra headers to sign besides content-type and host, lower-case names. */
  extraHeaders?: Readonly<Record<string, string>>;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** The UTC date of a timestamp, as the credential scope names it. */
export const tc3Date = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 10);

/** The Authorization header's value. */
export function tc3Authorization(input: Tc3Input): string {
  const headers: Record<string, string> = { 'content-type': input.contentType, host: input.host, ...input.extraHeaders };
  const names = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n].trim().toLowerCase()}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(input.payload)].join('\n');
  const date = tc3Date(input.timestamp);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signing = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signing).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
