import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Cloudflare Turnstile's siteverify, locally: a form-encoded POST of secret, response and remoteip answered with
 * `{success}` — true only for the one good token under the expected secret. Standalone (node: modules only) so the
 * browser tests run it too.
 */

export const TURNSTILE_SECRET = 'turnstile-secret-test';
export const TURNSTILE_SITE_KEY = 'turnstile-site-key-test';
export const GOOD_TOKEN = 'turnstile-good-token';

export interface TurnstileStandIn {
  /** The TURNSTILE_VERIFY_URL to configure. */
  url: string;
  /** Every form received. */
  calls: Array<Record<string, string>>;
  close(): Promise<void>;
}

export async function startTurnstileStandIn(): Promise<TurnstileStandIn> {
  const calls: Array<Record<string, string>> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      calls.push(form);
      const typed = req.method === 'POST' && String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded');
      const success = typed && form.secret === TURNSTILE_SECRET && form.response === GOOD_TOKEN;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
