import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RateLimitConfig } from '../config.js';
import { ADMITTED, retryAfterSeconds, type LimitWindow, type RateLimiter, type Verdict } from '../services/rate-limit/limiter.js';
import { RelayError } from '../relay/errors.js';
import { isRelayUrl, sendError } from '../relay/routes/index.js';
import { CONSOLE_ERRORS, consoleErrorBody } from './errors.js';
import { sendTooManyRequestsPage } from '../web/too-many-requests-page.js';

/*
 * The per-address limits of everything that is not a relay call (docs/decisions.md, "Rate limits"): the console API
 * (and the legacy billing endpoints chat clients poll), the web pages and their files, and the critical routes —
 * sign-in, registration, mailed codes, password reset, third-party sign-in — which declare `config: { critical: true }`
 * and count on top of the API's limit. The address is the one TRUSTED_PROXIES lets Fastify believe.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counts against the critical per-address limit too (CRITICAL_RATE_LIMIT*). */
    critical?: boolean;
    /**
     * Not counted by the per-address limits: health probes, which a balancer sends from one address, and the
     * console's content-hashed files, which browsers cache for good (web/serve-console.ts).
     */
    unlimited?: boolean;
  }
}

/** The key prefixes (marks) of the established gateway. */
const MARK = { api: 'GA:', web: 'GW:', critical: 'CT:' } as const;

type Surface = 'api' | 'billing' | 'web';

function surfaceOf(url: string): Surface | null {
  if (url.startsWith('/api/') || url === '/api' || url.startsWith('/api?')) return 'api';
  if (url.startsWith('/dashboard/') || url.startsWith('/v1/dashboard/')) return 'billing';
  // Relay calls have their own limit (per user, relay/model-rate-limit.ts).
  return isRelayUrl(url) ? null : 'web';
}

/** A browser navigating (a page load, not a script or an image) asks for HTML. */
const wantsPage = (request: FastifyRequest) => request.headers['sec-fetch-mode'] === 'navigate' || (request.headers.accept ?? '').includes('text/html');

/** The 429, with Retry-After saying when the address's window has room again. */
function refuse(limiter: RateLimiter, window: LimitWindow, surface: Surface, reply: FastifyReply): void {
  const answer = (retryAfter: number) => {
    if (surface === 'billing') {
      const err = new RelayError(429, CONSOLE_ERRORS.tooManyRequests, 'rate_limit_exceeded');
      err.retryAfter = retryAfter;
      sendError(reply, err, 'openai');
      return;
    }
    if (retryAfter > 0) void reply.header('retry-after', String(retryAfter));
    if (surface === 'api') void reply.status(429).send(consoleErrorBody(CONSOLE_ERRORS.tooManyRequests));
    else if (wantsPage(reply.request)) sendTooManyRequestsPage(reply, retryAfter);
    else void reply.status(429).type('text/plain; charset=utf-8').send(CONSOLE_ERRORS.tooManyRequests);
  };
  const retryAfter = retryAfterSeconds(limiter, window);
  if (typeof retryAfter === 'number') answer(retryAfter);
  else void retryAfter.then(answer);
}

const windowOf = (limit: RateLimitConfig, mark: string, ip: string): LimitWindow => ({ key: mark + ip, max: limit.max, windowMs: limit.durationSeconds * 1000 });

/** Answers 429 when the window is full, else lets the request go on (synchronously when the limiter is in memory). */
function check(limiter: RateLimiter, window: LimitWindow, surface: Surface, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const decide = (verdict: Verdict) => {
    if (verdict === ADMITTED) done();
    else refuse(limiter, window, surface, reply);
  };
  const verdict = limiter.admit(null, window);
  if (typeof verdict === 'number') decide(verdict);
  // The Redis limiter admits when it cannot answer; nothing else rejects.
  else verdict.then(decide, () => done());
}

export interface HttpLimits {
  api: RateLimitConfig;
  web: RateLimitConfig;
  critical: RateLimitConfig;
}

/** Installs the limits; call before any route is registered (critical routes get their check as they are added). */
export function installHttpRateLimits(app: FastifyInstance, limiter: RateLimiter, limits: HttpLimits): void {
  if (limits.api.enabled || limits.web.enabled) {
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const surface = surfaceOf(request.url);
      const limit = surface === 'web' ? limits.web : limits.api;
      if (surface === null || !limit.enabled || request.routeOptions.config.unlimited) {
        done();
        return;
      }
      check(limiter, windowOf(limit, surface === 'web' ? MARK.web : MARK.api, request.ip), surface, reply, done);
    });
  }
  if (!limits.critical.enabled) return;
  const critical = limits.critical;
  const checkCritical = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) =>
    check(limiter, windowOf(critical, MARK.critical, request.ip), 'api', reply, done);
  app.addHook('onRoute', (route) => {
    if (!route.config?.critical) return;
    const existing = route.onRequest;
    route.onRequest = existing ? [...[existing].flat(), checkCritical] : [checkCritical];
  });
}
