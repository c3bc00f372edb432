import { AppError } from '../lib/errors.js';
import { SHUTDOWN_MESSAGE } from './in-flight.js';

/**
 * A relay failure. `local` errors are the gateway's own verdict (bad token, no quota, bad body): they are never
 * retried and never count against a channel. Upstream errors carry what the provider said.
 */
export class RelayError extends AppError {
  constructor(
    status: number,
    message: string,
    code: string,
    readonly type: string = 'switchyard_error',
    readonly local: boolean = true,
  ) {
    super(status, message, code);
  }
}

export function upstreamError(status: number, message: string, code: string, type: string): RelayError {
  return new RelayError(status, message, code, type, false);
}

/** Network-level failures are reported without the upstream address or key. */
export function unreachableUpstream(): RelayError {
  return new RelayError(502, '请求上游地址失败', 'do_request_failed', 'switchyard_error', false);
}

/** A call that arrives, or is still waiting for its upstream, while the server shuts down. */
export function shuttingDown(): RelayError {
  return new RelayError(503, SHUTDOWN_MESSAGE, 'service_unavailable', 'server_error');
}
