import type { FastifyReply } from 'fastify';
import type { RelayError } from '../../errors.js';
import type { TaskReply } from '../submit.js';
import { MJ_CODE } from './wire.js';

/*
 * Errors answered in the shape Midjourney clients read (the established gateway's): `{code, description, type}`,
 * the code a midjourney-proxy one (4: the request was refused, 5: a failure, 30: rate limited). The gateway's own
 * refusals (key, balance, channel, body) keep their status and say `new_api_error`; what an upstream said or failed
 * to say is `upstream_error`.
 */

export interface MjErrorBody {
  code: number;
  description: string;
  type: 'new_api_error' | 'upstream_error';
}

/** The established gateway's words for an upstream that limits the caller (code 30), answered 429. */
export const RATE_LIMITED_TEXT = '当前分组负载已饱和，请稍后再试，或升级账户以提升服务质量。';

export function mjReply(status: number, code: number, description: string, type: MjErrorBody['type'] = 'new_api_error'): TaskReply {
  return { status, body: { code, description, type } satisfies MjErrorBody };
}

/** A refusal of the request itself (bad task id, unknown action ...): 400, code 4. */
export const requestRefused = (description: string): TaskReply => mjReply(400, MJ_CODE.REQUEST_ERROR, description);

/**
 * The body of an error the gateway throws (its own refusals keep their status; a crash is a 500, code 5). A prompt
 * refused for a sensitive word says 24, the proxy's own code for a banned prompt, which drawing clients know.
 */
export function mjErrorBody(err: RelayError): MjErrorBody {
  const code = err.status === 500 ? MJ_CODE.UNKNOWN_ERROR : err.code === 'sensitive_words_detected' ? MJ_CODE.BANNED_PROMPT : MJ_CODE.REQUEST_ERROR;
  return { code, description: err.message, type: 'new_api_error' };
}

export function send(reply: FastifyReply, answer: TaskReply): FastifyReply {
  return reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(answer.body));
}
