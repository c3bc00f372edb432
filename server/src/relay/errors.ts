import { AppError } from '../lib/errors.js';
import { SHUTDOWN_MESSAGE } from './in-flight.js';

/**
 * A relay failure. `local` errors are the gateway's own verdict (bad token, no quota, bad body): they are never
 * retried and never count against a channel. Upstream errors carry what the provider said.
 *
 * `type` is the error type an OpenAI-format body shows; left unset, each client format derives its documented type
 * from the status (docs/relay-errors.md).
 */
export class RelayError extends AppError {
  /** The request field at fault (OpenAI's `param`), when one is. */
  param?: string;
  /** Seconds after which trying again may succeed (Retry-After), when the gateway can tell. */
  retryAfter?: number;
  /** The upstream refused the channel's credentials before the call itself (an access-token exchange). */
  credentialsRefused?: boolean;

  constructor(
    status: number,
    message: string,
    code: string,
    readonly type?: string,
    readonly local: boolean = true,
  ) {
    super(status, message, code);
  }
}

export function upstreamError(status: number, message: string, code: string, type?: string): RelayError {
  return new RelayError(status, message, code, type, false);
}

/** A 400 about one field of the request body. */
export function invalidField(message: string, param: string, code: string): RelayError {
  const err = new RelayError(400, message, code, 'invalid_request_error');
  err.param = param;
  return err;
}

/**
 * An upstream that refused the gateway's credentials (401/403, or a key it calls invalid): the channel's problem,
 * never the caller's, so the caller gets a 502 that says so rather than a 401 that would blame its own key. The
 * upstream's message is not passed on (it may quote part of the channel's key).
 */
export function upstreamAuthFailed(upstreamStatus: number): RelayError {
  return new RelayError(502, `上游拒绝了渠道的凭证（HTTP ${upstreamStatus}），请联系管理员检查渠道密钥`, 'upstream_auth_failed', undefined, false);
}

/** Network-level failures are reported without the upstream address or key. */
export function unreachableUpstream(): RelayError {
  return new RelayError(502, '请求上游地址失败', 'do_request_failed', undefined, false);
}

/**
 * Every channel that could serve the call has UPSTREAM_MAX_CONNECTIONS calls in flight from this node. Said at once
 * (never a wait behind streams that may last minutes), so the caller can back off and come again.
 */
export function upstreamBusy(): RelayError {
  const err = new RelayError(503, '当前请求上游的并发已达上限，请稍后重试', 'upstream_busy', undefined, false);
  err.retryAfter = 1;
  return err;
}

/**
 * SETTLEMENT_MAX_PENDING settlements wait to be written (the database is away or too slow): no call is taken that
 * could not be billed.
 */
export function settlementBacklog(): RelayError {
  const err = new RelayError(503, '计费记录写入积压，暂不受理新请求，请稍后重试', 'settlement_backlog');
  err.retryAfter = 5;
  return err;
}

/** A call that arrives, or is still waiting for its upstream, while the server shuts down. */
export function shuttingDown(): RelayError {
  return new RelayError(503, SHUTDOWN_MESSAGE, 'service_unavailable');
}
