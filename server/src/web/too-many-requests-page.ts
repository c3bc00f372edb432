import type { FastifyReply } from 'fastify';
import { CONSOLE_ERRORS } from '../console/errors.js';
import { staticPageHeaders } from './console-headers.js';

/** A page a person can read, for a navigation the per-address web limit refused (a bare 429 shows a blank tab). */
export function sendTooManyRequestsPage(reply: FastifyReply, retryAfterSeconds: number): void {
  const message = CONSOLE_ERRORS.tooManyRequests;
  const when = retryAfterSeconds > 0 ? `请在 ${retryAfterSeconds} 秒后刷新本页。` : '请稍后刷新本页。';
  staticPageHeaders(reply);
  void reply
    .status(429)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${message}</title><style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:flex;` +
        `align-items:center;justify-content:center;background:#f5f5f5;color:#1f1f1f}main{text-align:center;padding:24px}` +
        `h1{font-size:20px;font-weight:600}</style></head><body><main><h1>${message}</h1><p>${when}</p></main></body></html>`,
    );
}
