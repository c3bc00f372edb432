import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { ADMITTED, retryAfterSeconds, WATCHED_FULL, type LimitWindow, type RateLimiter, type Verdict } from '../services/rate-limit/limiter.js';
import { RelayError } from './errors.js';
import type { RelayInput } from './pipeline.js';

/*
 * The model request limit (options ModelRequestRateLimit*), per user, over every relayed call of the /v1 (and Claude,
 * Gemini, Responses) endpoints: at most ModelRequestRateLimitCount calls (0: no such limit) and at most
 * ModelRequestRateLimitSuccessCount successful ones within ModelRequestRateLimitDurationMinutes. Every admitted call
 * counts at once against the first; a call counts against the second when it ends with its answer delivered
 * (status < 400), so failed calls leave room for more. A refused call is answered 429 before anything is reserved,
 * so it is never charged. The playground (a session caller) is not limited, as in the established gateway.
 */

/** Keys of the established gateway: all calls (MRRL) and successful ones (MRRLS), per user id. */
const TOTAL = 'MRRL:';
const SUCCESS = 'MRRLS:';

export function limitExceeded(minutes: number, max: number): RelayError {
  // A verdict, not a fault: no stack is captured (most of the cost of a refusal, which a flood makes often).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new RelayError(429, `您已达到请求数限制：${minutes}分钟内最多请求${max}次`, 'rate_limit_exceeded', 'rate_limit_error');
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Counts a successful call once its answer is over (headers sent with a status below 400). */
function countSuccessOnClose(limiter: RateLimiter, res: ServerResponse, success: LimitWindow): void {
  res.once('close', () => {
    if (res.headersSent && res.statusCode < 400) limiter.record(success);
  });
}

/**
 * Admits the call or throws the 429, with Retry-After when room comes back (in memory this returns synchronously;
 * nothing at all is done when the option is off). The relay pipeline calls it first, before the model check, the channel choice and the reservation.
 */
export function limitModelRequests(ctx: AppContext, input: RelayInput): void | Promise<void> {
  const options = ctx.options;
  if (input.caller.kind === 'session' || !options.get('ModelRequestRateLimitEnabled')) return;
  const minutes = options.get('ModelRequestRateLimitDurationMinutes');
  const windowMs = minutes * 60_000;
  const totalMax = options.get('ModelRequestRateLimitCount');
  const successMax = options.get('ModelRequestRateLimitSuccessCount');
  const user = input.caller.user.id;
  const success: LimitWindow = { key: SUCCESS + user, max: successMax, windowMs };
  const total: LimitWindow | null = totalMax > 0 ? { key: TOTAL + user, max: totalMax, windowMs } : null;
  const limiter = ctx.rateLimiter;
  const decide = (verdict: Verdict): void | Promise<void> => {
    if (verdict === ADMITTED) {
      countSuccessOnClose(limiter, input.ex.res, success);
      return;
    }
    const full = verdict === WATCHED_FULL ? success : (total as LimitWindow);
    const err = limitExceeded(minutes, full.max);
    const refuse = (retryAfter: number): never => {
      err.retryAfter = retryAfter;
      throw err;
    };
    const retryAfter = retryAfterSeconds(limiter, full);
    return typeof retryAfter === 'number' ? refuse(retryAfter) : retryAfter.then(refuse);
  };
  const verdict = limiter.admit(success, total);
  return typeof verdict === 'number' ? decide(verdict) : verdict.then(decide);
}
