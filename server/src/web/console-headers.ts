import type { FastifyReply } from 'fastify';
import type { Options } from '../options/index.js';
import { consolePolicy, STATIC_PAGE_POLICY } from './console-policy.js';

/** Headers every page and file of the console carries; relay answers (JSON, streams) carry none of them. */
const FIXED = {
  'x-content-type-options': 'nosniff',
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'SAMEORIGIN',
} as const;

/**
 * Sets the console's security headers on a reply. The policy follows the options (Turnstile and Telegram sign-in
 * add their script origins while switched on) and is rebuilt only when an option changes.
 */
export function consoleHeaders(options: Options, inlineScripts: string[]): (reply: FastifyReply) => void {
  const policy = () =>
    options.derive('console-csp', () =>
      consolePolicy(inlineScripts, { turnstile: options.get('TurnstileCheckEnabled'), telegram: options.get('TelegramOAuthEnabled') }),
    );
  return (reply) => {
    void reply.headers(FIXED).header('content-security-policy', policy());
  };
}

/** The same fixed headers with a policy for a page that has no script at all. */
export function staticPageHeaders(reply: FastifyReply): void {
  void reply.headers(FIXED).header('content-security-policy', STATIC_PAGE_POLICY);
}
